/// Builds the timeline of a quota habit ("3 times a week"): days first, then the periods they fall in.
///
/// A day reached is `completed`; an excused day `skipped`; today, while its period still needs
/// more, `pending`; every other day is `notDue`, because no single day is asked for. The
/// periods carry the misses: one that ended short of its quota is `missed`.
///
/// `period` is the part of the timeline one revision judges: periods never reach past it, and
/// when a later revision takes over (`endsAtRevision`) the period cut there ends there.
///
/// A week or month cut short by the habit's start or its archive day needs the quota scaled to
/// the days it tracks, rounded up and at least one: "3 a week" asks a habit started on a Sunday
/// for one day that first week, never for three days out of one. A period cut by a revision
/// taking over keeps the whole quota (the rule in force asked for it; docs/domain.md), unless
/// the revision moved the week's first day: the week split by the move is two short weeks, each
/// asked its share.
struct QuotaTimeline {
    /// The completed days a span of `days` of a natural period of `length` days needs.
    static func needed(times: Int, days: Int, length: Int) -> Int {
        guard days < length, length > 0 else { return times }
        return max(1, min(times, (times * days + length - 1) / length))
    }

    let quota: PeriodQuota
    let today: LocalDay
    let period: LocalDayRange
    let endsAtRevision: Bool
    /// `period` begins on the habit's start day, and ends on its archive day.
    let startsAtHabitStart: Bool
    let endsAtArchive: Bool
    /// `period` begins, or ends, where a revision moved the week's first day.
    var startsAtWeekMove = false
    var endsAtWeekMove = false

    func build(due: [Bool], totals: [Double], progress: [Double], skipped: [Bool]) -> (entries: [HabitEntry], periods: [HabitPeriod]) {
        let count = period.count
        // A day after today meets nothing yet, whatever a policy says of its empty total
        // (`at-most` calls a day with nothing recorded met).
        let met = (0..<count).map { due[$0] && progress[$0] >= 1 && period[$0] <= today }
        // Prefix sums of met days, for O(1) counts over any span.
        var prefix = [Int](repeating: 0, count: count + 1)
        for offset in 0..<count { prefix[offset + 1] = prefix[offset] + (met[offset] ? 1 : 0) }
        func metDays(_ span: LocalDayRange) -> Int {
            let clipped = span.clamped(to: period)
            guard !clipped.isEmpty else { return 0 }
            let start = period.first.days(to: clipped.first)
            return prefix[start + clipped.count] - prefix[start]
        }
        func allSkipped(_ span: LocalDayRange) -> Bool {
            let clipped = span.clamped(to: period)
            return !clipped.isEmpty && clipped.allSatisfy { skipped[period.first.days(to: $0)] }
        }

        var periods: [HabitPeriod] = []
        let elapsedEnd = min(today, period.last)
        if elapsedEnd >= period.first {
            switch quota.period {
            case .week, .month:
                var start = period.first
                while start <= elapsedEnd {
                    let week = start.startOfWeek(quota.weekStart)
                    let natural = quota.period == .week ? week.adding(days: 6) : start.startOfMonth.adding(days: start.daysInMonth - 1)
                    let length = quota.period == .week ? 7 : start.daysInMonth
                    let span = LocalDayRange(start, min(natural, period.last))
                    let done = metDays(span)
                    let naturalStart = quota.period == .week ? week : start.startOfMonth
                    let cutByStart = (startsAtHabitStart || startsAtWeekMove) && span.first == period.first && span.first > naturalStart
                    let cutByArchive = endsAtArchive && span.last == period.last && span.last < natural && span.last < today
                    let cutByMove = endsAtWeekMove && span.last == period.last && span.last < natural
                    let needed = cutByStart || cutByArchive || cutByMove ? Self.needed(times: quota.times, days: span.count, length: length) : quota.times
                    let state: EntryState
                    if done >= needed { state = .completed }
                    else if allSkipped(span) { state = .skipped }
                    else if span.last < today && (span.last == natural || cutByArchive || (endsAtRevision && span.last == period.last)) { state = .missed }
                    else { state = .pending }
                    periods.append(HabitPeriod(days: span, count: done, times: needed, state: state))
                    start = natural.adding(days: 1)
                }
            case .rolling(let length):
                for day in LocalDayRange(period.first, elapsedEnd) {
                    let window = LocalDayRange(max(period.first, day.adding(days: 1 - length)), day)
                    let done = metDays(window)
                    let state: EntryState
                    if done >= quota.times { state = .completed }
                    else if day == today { state = .pending }
                    else if skipped[period.first.days(to: day)] { state = .skipped }
                    else if window.count < length { state = .notDue }
                    else { state = .missed }
                    periods.append(HabitPeriod(days: window, count: done, times: quota.times, state: state))
                }
            }
        }

        func periodMet(_ day: LocalDay) -> Bool {
            switch quota.period {
            case .week, .month:
                // The period holding `day`, as judged above (its quota scaled when it is cut short).
                return periods.last { $0.days.contains(day) }.map { $0.count >= $0.times } ?? false
            case .rolling(let length): return metDays(LocalDayRange(day.adding(days: 1 - length), day)) >= quota.times
            }
        }
        var entries: [HabitEntry] = []
        entries.reserveCapacity(count)
        for offset in 0..<count {
            let day = period[offset]
            let state: EntryState
            if day > today { state = .upcoming }
            else if met[offset] { state = .completed }
            else if skipped[offset] { state = .skipped }
            else if day == today && due[offset] && !periodMet(day) { state = .pending }
            else { state = .notDue }
            entries.append(HabitEntry(day: day, isDue: due[offset], total: totals[offset], progress: progress[offset], state: state))
        }
        return (entries, periods)
    }
}
