/// Builds a habit's timeline from its completions and skips in one pass: O(days + completions).
public struct HabitTimelineBuilder {
    /// `startedOn` … the earlier of `archivedOn` and `max(today, through)`.
    public static func period(of habit: Habit, today: LocalDay, through: LocalDay? = nil) -> LocalDayRange {
        var last = max(today, through ?? today)
        if let archivedOn = habit.archivedOn { last = min(last, archivedOn) }
        return LocalDayRange(habit.startedOn, last)
    }

    public let policies: HabitPolicies

    public init(policies: HabitPolicies) {
        self.policies = policies
    }

    /// The timeline from `startedOn` to the earlier of `archivedOn` and `max(today, through)`.
    ///
    /// Completions and skips outside that period are ignored; the schedule and progress
    /// policies are each asked once for the whole period. Throws what the policies throw.
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
            return HabitTimeline(habit: habit, today: today, period: period, entries: [])
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

        let due = try policies.schedule.dueDays(period, habit: habit)
        let progress = try policies.progress.progress(totals: totals, days: period, habit: habit)
        guard due.count == count, progress.count == count else {
            throw TimelineError.wrongAnswerCount(expected: count, due: due.count, progress: progress.count)
        }

        if let quota = try policies.schedule.quota(for: habit) {
            return QuotaTimeline(quota: quota, habit: habit, today: today, period: period)
                .build(due: due, totals: totals, progress: progress, skipped: skipped)
        }
        var entries: [HabitEntry] = []
        entries.reserveCapacity(count)
        for offset in 0..<count {
            let day = period[offset]
            let state = HabitEntry.state(
                day: day, today: today, isDue: due[offset], isSkipped: skipped[offset], progress: progress[offset]
            )
            entries.append(HabitEntry(day: day, isDue: due[offset], total: totals[offset], progress: progress[offset], state: state))
        }
        return HabitTimeline(habit: habit, today: today, period: period, entries: entries)
    }
}
