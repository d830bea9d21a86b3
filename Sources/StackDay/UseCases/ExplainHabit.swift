/// Walks the streak fold of one habit step by step, through each revision's per-day streak rule,
/// and keeps the steps whose day (or period's last day) falls in a range.
public struct ExplainHabit {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// `range` defaults to the 8 weeks up to today. The fold starts at the habit's start whatever
    /// the range (a step's state depends on every earlier one) and ends today; its last streak is
    /// `stats`'s. Throws `UseCaseError.habitNotFound`, `.invalidRange`, `ReadWindow`'s errors, and
    /// the habit's `HabitFailure` when a policy fails.
    public func callAsFunction(_ reference: HabitReference, from: LocalDay? = nil, to: LocalDay? = nil) throws -> HabitExplanation {
        let today = context.today
        let last = to ?? today
        let first = from ?? last.adding(days: -55)
        guard first <= last else { throw UseCaseError.invalidRange(from: first, to: last) }
        let range = LocalDayRange(first, last)
        try ReadWindow.check(range)
        try ReadWindow.check(last, today: today)
        return try context.store.read { tx in
            let habit = try context.habit(reference, in: tx)
            return try TimelineLoader(context: context).evaluate(habit, today: today, in: tx) { evaluated in
                let timeline = evaluated.timeline
                var steps: [HabitExplanation.Step] = []
                var streak: HabitStreak? = nil
                for segment in timeline.segments {
                    let outcomes = timeline.outcomes(of: segment)
                    guard !outcomes.isEmpty else { continue }
                    let folded = try evaluated.policies.policies(for: segment.revision).streak.explain(over: outcomes, habit: habit, carrying: streak)
                    for (entry, step) in zip(outcomes, folded) {
                        streak = step.streak
                        guard range.contains(entry.day) else { continue }
                        let period = segment.quota == nil ? nil : segment.periods.first { $0.days.last == entry.day }
                        steps.append(HabitExplanation.Step(
                            days: period?.days ?? LocalDayRange(entry.day, entry.day), revision: segment.revision, entry: entry,
                            goal: period.map { Double($0.times) } ?? segment.revision.goal, step: step, period: period
                        ))
                    }
                }
                return HabitExplanation(habit: habit, range: range, streak: streak ?? HabitStreak(current: 0, longest: 0),
                                        countsIn: CountUnit(timeline.quota), steps: steps)
            }.get()
        }
    }
}
