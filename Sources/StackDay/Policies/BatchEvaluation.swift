/// A habit's period evaluated in one piece of work by its resolver (`PolicyResolver.evaluate`):
/// the answers `HabitTimelineBuilder` would have gathered call by call, and the streak over the
/// elapsed days when it was asked for (nil when it was not, or when the streak rule failed: the
/// loader then folds it itself, and meets the failure there).
public struct BatchEvaluation: Sendable {
    /// Answers for every day of the period.
    public let answers: TimelineAnswers
    public let streak: HabitStreak?

    public init(answers: TimelineAnswers, streak: HabitStreak?) {
        self.answers = answers
        self.streak = streak
    }
}
