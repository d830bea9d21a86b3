/// Builds a habit's timeline from its completions and skips in one pass: O(days + completions).
public struct HabitTimelineBuilder {
    /// `startedOn` … the earlier of `archivedOn` and `max(today, through)`.
    public static func period(of habit: Habit, today: LocalDay, through: LocalDay? = nil) -> LocalDayRange {
        var last = max(today, through ?? today)
        if let archivedOn = habit.archivedOn { last = min(last, archivedOn) }
        return LocalDayRange(habit.startedOn, last)
    }

    public let policies: RevisionPolicies

    public init(policies: RevisionPolicies) {
        self.policies = policies
    }

    /// A builder judging every revision with the same policies.
    public init(policies: HabitPolicies) {
        self.init(policies: RevisionPolicies(uniform: policies))
    }

    /// The timeline from `startedOn` to the earlier of `archivedOn` and `max(today, through)`.
    ///
    /// Completions and skips outside that period are ignored; each revision's schedule and
    /// progress policies are asked once for the days it judges. Throws what the policies throw.
    public func build(
        habit: Habit,
        completions: [Completion],
        skips: [Skip],
        today: LocalDay,
        through: LocalDay? = nil
    ) throws -> HabitTimeline {
        try build(habit: habit, dailyTotals: completions.map { ($0.completedOn, $0.amountThousandths) }, skips: skips, today: today, through: through)
    }

    /// The same, from each day's total in thousandths (a day may repeat; its totals add up).
    public func build(
        habit: Habit,
        dailyTotals: [(day: LocalDay, thousandths: Int64)],
        skips: [Skip],
        today: LocalDay,
        through: LocalDay? = nil
    ) throws -> HabitTimeline {
        let period = Self.period(of: habit, today: today, through: through)
        let count = period.count
        guard count > 0 else {
            return HabitTimeline(habit: habit, today: today, period: period, entries: [], segments: [])
        }

        var thousandths = [Int64](repeating: 0, count: count)
        for (day, amount) in dailyTotals where period.contains(day) {
            // Day totals are kept far below overflow on the way in; saturate rather than trap on a
            // store written some other way.
            let index = period.first.days(to: day)
            let (sum, overflow) = thousandths[index].addingReportingOverflow(amount)
            thousandths[index] = overflow ? .max : sum
        }
        var skipped = [Bool](repeating: false, count: count)
        for skip in skips where period.contains(skip.day) {
            skipped[period.first.days(to: skip.day)] = true
        }
        let totals = thousandths.map { Quantity.value(thousandths: $0) }

        var entries: [HabitEntry] = []
        entries.reserveCapacity(count)
        var segments: [TimelineSegment] = []
        let spans = habit.revisionSpans(in: period)
        for (index, span) in spans.enumerated() {
            let days = span.days
            let offsets = period.first.days(to: days.first)..<(period.first.days(to: days.last) + 1)
            let policies = try policies.policies(for: span.revision)
            let spanTotals = Array(totals[offsets])
            let due = try policies.schedule.dueDays(days, habit: habit)
            let progress = try policies.progress.progress(totals: spanTotals, days: days, goal: span.revision.goal)
            guard due.count == days.count, progress.count == days.count else {
                throw TimelineError.wrongAnswerCount(expected: days.count, due: due.count, progress: progress.count)
            }
            if let quota = try policies.schedule.quota(for: habit) {
                let built = QuotaTimeline(quota: quota, today: today, period: days, endsAtRevision: index < spans.count - 1)
                    .build(due: due, totals: spanTotals, progress: progress, skipped: Array(skipped[offsets]))
                entries += built.entries
                segments.append(TimelineSegment(revision: span.revision, days: days, quota: quota, periods: built.periods))
                continue
            }
            for offset in 0..<days.count {
                let day = days[offset]
                let state = HabitEntry.state(
                    day: day, today: today, isDue: due[offset], isSkipped: skipped[offsets.lowerBound + offset], progress: progress[offset]
                )
                entries.append(HabitEntry(day: day, isDue: due[offset], total: spanTotals[offset], progress: progress[offset], state: state))
            }
            segments.append(TimelineSegment(revision: span.revision, days: days))
        }
        return HabitTimeline(habit: habit, today: today, period: period, entries: entries, segments: segments)
    }
}
