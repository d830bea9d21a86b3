/// One step of a streak rule's fold, as `explain` shows it: the state before and after the
/// outcome (the tables the rule returned, as JSON), the streak after it, and the rule's own
/// sentence for the step when it gives one.
public struct StreakStep: Sendable, Equatable {
    public let before: JSONValue
    public let after: JSONValue
    public let streak: HabitStreak
    public let why: String?

    public init(before: JSONValue, after: JSONValue, streak: HabitStreak, why: String?) {
        self.before = before
        self.after = after
        self.streak = streak
        self.why = why
    }
}
