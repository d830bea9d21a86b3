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
        let range = try ReadWindow.explained(from: from, to: to, today: today)
        return try context.store.read { tx in
            let habit = try context.habit(reference, in: tx)
            return try TimelineLoader(context: context).evaluate(habit, today: today, in: tx) { try Self.explain($0, in: range) }.get()
        }
    }

    /// The fold of an evaluated habit, step by step, keeping the steps in `range`.
    static func explain(_ evaluated: EvaluatedHabit, in range: LocalDayRange) throws -> HabitExplanation {
        let timeline = evaluated.timeline
        var steps: [HabitExplanation.Step] = []
        var streak: HabitStreak? = nil
        for segment in timeline.segments {
            let outcomes = timeline.outcomes(of: segment)
            guard !outcomes.isEmpty else { continue }
            // Only the steps from the range's first day are kept; the ones before only run.
            let keep = outcomes.firstIndex { $0.day >= range.first }.map { $0 - outcomes.startIndex } ?? outcomes.count
            let folded = try evaluated.policies.policies(for: segment.revision).streak.explain(over: outcomes, habit: timeline.habit, carrying: streak, keepingFrom: keep)
            streak = folded.final
            for (entry, step) in zip(outcomes.dropFirst(keep), folded.steps) {
                guard range.contains(entry.day) else { continue }
                let period = segment.quota == nil ? nil : segment.periods.first { $0.days.last == entry.day }
                steps.append(HabitExplanation.Step(
                    days: period?.days ?? LocalDayRange(entry.day, entry.day), revision: segment.revision, entry: entry,
                    goal: period.map { Double($0.times) } ?? segment.revision.goal, step: step, period: period
                ))
            }
        }
        return HabitExplanation(habit: timeline.habit, range: range, streak: streak ?? HabitStreak(current: 0, longest: 0),
                                countsIn: CountUnit(timeline.quota), steps: steps)
    }

    /// Every outcome day of an evaluated habit with the streak and score after it.
    static func days(_ evaluated: EvaluatedHabit) throws -> [SimulatedDay] {
        let timeline = evaluated.timeline
        let explanation = try explain(evaluated, in: timeline.period)
        let scores = Dictionary(HabitStatisticsCalculator.scores(timeline).map { ($0.day, $0.score) }, uniquingKeysWith: { $1 })
        return explanation.steps.map { step in
            SimulatedDay(day: step.days.last, state: step.entry.state, streak: step.step.streak, score: scores[step.days.last] ?? 0)
        }
    }
}
