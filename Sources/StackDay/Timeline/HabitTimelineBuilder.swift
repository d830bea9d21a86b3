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
        try build(habit: habit, dailyTotals: dailyTotals, skips: skips, today: today, through: through, known: nil).timeline
    }

    /// The timeline and the answers it was built from, starting from `known`: answers for the
    /// first `known.count` days of the period (their totals and skips included), which the
    /// policies are not asked again. `dailyTotals` and `skips` need only cover the days after them.
    /// Quotas come from `known.spans` for the same rules key. Throws what the policies throw.
    public func build(
        habit: Habit,
        dailyTotals: [(day: LocalDay, thousandths: Int64)],
        skips: [Skip],
        today: LocalDay,
        through: LocalDay? = nil,
        known: TimelineAnswers?
    ) throws -> (timeline: HabitTimeline, answers: TimelineAnswers) {
        let period = Self.period(of: habit, today: today, through: through)
        let count = period.count
        guard count > 0 else {
            return (HabitTimeline(habit: habit, today: today, period: period, entries: [], segments: []), TimelineAnswers())
        }
        let knownCount = min(known?.count ?? 0, count)
        var answers = TimelineAnswers(
            due: [Bool](repeating: false, count: count), progress: [Double](repeating: 0, count: count),
            thousandths: [Int64](repeating: 0, count: count), skipped: [Bool](repeating: false, count: count)
        )
        if let known, knownCount > 0 {
            answers.due.replaceSubrange(0..<knownCount, with: known.due[0..<knownCount])
            answers.progress.replaceSubrange(0..<knownCount, with: known.progress[0..<knownCount])
            answers.thousandths.replaceSubrange(0..<knownCount, with: known.thousandths[0..<knownCount])
            answers.skipped.replaceSubrange(0..<knownCount, with: known.skipped[0..<knownCount])
        }
        for (day, amount) in dailyTotals where period.contains(day) {
            let index = period.first.days(to: day)
            guard index >= knownCount else { continue }
            answers.thousandths[index] = Quantity.adding(amount, to: answers.thousandths[index])
        }
        for skip in skips where period.contains(skip.day) {
            let index = period.first.days(to: skip.day)
            if index >= knownCount { answers.skipped[index] = true }
        }
        let totals = answers.thousandths.map { Quantity.value(thousandths: $0) }
        var knownQuotas: [String: PeriodQuota?] = [:]
        for case let span? in known?.spans ?? [] { knownQuotas[span.rulesKey] = span.quota }

        var entries: [HabitEntry] = []
        entries.reserveCapacity(count)
        var segments: [TimelineSegment] = []
        let spans = habit.revisionSpans(in: period)
        var resolvedPolicies: [Int: HabitPolicies] = [:]
        func resolve(_ index: Int) throws -> HabitPolicies {
            if let resolved = resolvedPolicies[index] { return resolved }
            let policies = try self.policies.policies(for: spans[index].revision)
            resolvedPolicies[index] = policies
            return policies
        }
        // Every span's quota first: a week split where a revision moves its first day is judged
        // as two short weeks, which needs the neighbours' quotas.
        let quotas: [PeriodQuota?] = try spans.indices.map { index in
            if let key = CachedSpan.rulesKey(of: spans[index].revision, unit: habit.unit), let cached = knownQuotas[key] { return cached }
            return try resolve(index).schedule.quota(for: habit)
        }
        func weekMoves(_ from: Int, _ to: Int) -> Bool {
            guard quotas.indices.contains(from), quotas.indices.contains(to), let before = quotas[from], let after = quotas[to] else { return false }
            return before.period == .week && after.period == .week && before.weekStart != after.weekStart
        }
        for (index, span) in spans.enumerated() {
            let days = span.days
            let offsets = period.first.days(to: days.first)..<(period.first.days(to: days.last) + 1)
            let rulesKey = CachedSpan.rulesKey(of: span.revision, unit: habit.unit)
            func policies() throws -> HabitPolicies { try resolve(index) }
            let tail = min(max(offsets.lowerBound, knownCount), offsets.upperBound)..<offsets.upperBound
            if !tail.isEmpty {
                let tailDays = LocalDayRange(period[tail.lowerBound], days.last)
                let due = try policies().schedule.dueDays(tailDays, habit: habit)
                let progress = try policies().progress.progress(totals: Array(totals[tail]), days: tailDays, goal: span.revision.goal)
                guard due.count == tail.count, progress.count == tail.count else {
                    throw TimelineError.wrongAnswerCount(expected: tail.count, due: due.count, progress: progress.count)
                }
                answers.due.replaceSubrange(tail, with: due)
                answers.progress.replaceSubrange(tail, with: progress)
            }
            let quota = quotas[index]
            answers.spans.append(rulesKey.map { CachedSpan(days: days, rulesKey: $0, quota: quota) })
            if let quota {
                var timeline = QuotaTimeline(quota: quota, today: today, period: days, endsAtRevision: index < spans.count - 1,
                                             startsAtHabitStart: index == 0, endsAtArchive: index == spans.count - 1 && habit.archivedOn == days.last)
                timeline.startsAtWeekMove = weekMoves(index - 1, index)
                timeline.endsAtWeekMove = weekMoves(index, index + 1)
                let built = timeline
                    .build(due: Array(answers.due[offsets]), totals: Array(totals[offsets]), progress: Array(answers.progress[offsets]),
                           skipped: Array(answers.skipped[offsets]))
                entries += built.entries
                segments.append(TimelineSegment(revision: span.revision, days: days, quota: quota, periods: built.periods))
                continue
            }
            for offset in offsets {
                let day = period[offset]
                let state = HabitEntry.state(
                    day: day, today: today, isDue: answers.due[offset], isSkipped: answers.skipped[offset], progress: answers.progress[offset]
                )
                entries.append(HabitEntry(day: day, isDue: answers.due[offset], total: totals[offset], progress: answers.progress[offset], state: state))
            }
            segments.append(TimelineSegment(revision: span.revision, days: days))
        }
        return (HabitTimeline(habit: habit, today: today, period: period, entries: entries, segments: segments), answers)
    }
}
