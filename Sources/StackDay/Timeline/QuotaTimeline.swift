/// Builds the timeline of a quota habit ("3 times a week"): days first, then the periods they fall in.
///
/// A day reached is `completed`; an excused day `skipped`; today, while its period still needs
/// more, `pending`; every other day is `notDue`, because no single day is asked for. The
/// periods carry the misses: one that ended short of its quota is `missed`.
///
/// `period` is the part of the timeline one revision judges: periods never reach past it, and
/// when a later revision takes over (`endsAtRevision`) the period cut there ends there.
struct QuotaTimeline {
    let quota: PeriodQuota
    let today: LocalDay
    let period: LocalDayRange
    let endsAtRevision: Bool

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
                    let natural = quota.period == .week ? start.startOfWeek.adding(days: 6) : start.startOfMonth.adding(days: start.daysInMonth - 1)
                    let span = LocalDayRange(start, min(natural, period.last))
                    let done = metDays(span)
                    let state: EntryState
                    if done >= quota.times { state = .completed }
                    else if allSkipped(span) { state = .skipped }
                    else if span.last < today && (span.last == natural || (endsAtRevision && span.last == period.last)) { state = .missed }
                    else { state = .pending }
                    periods.append(HabitPeriod(days: span, count: done, times: quota.times, state: state))
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
            case .week: return metDays(LocalDayRange(day.startOfWeek, day.startOfWeek.adding(days: 6))) >= quota.times
            case .month: return metDays(LocalDayRange(day.startOfMonth, day.startOfMonth.adding(days: day.daysInMonth - 1))) >= quota.times
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
