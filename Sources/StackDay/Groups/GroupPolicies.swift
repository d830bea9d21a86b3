/// The two rules of one group revision, bound to its parameters: the group rule judging each day
/// and the streak rule walking the group's days.
public struct GroupPolicies {
    public let rule: any GroupPolicy
    public let streak: any StreakPolicy

    public init(rule: any GroupPolicy, streak: any StreakPolicy) {
        self.rule = rule
        self.streak = streak
    }
}
