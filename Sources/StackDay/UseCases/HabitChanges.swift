/// The fields `EditHabit` can change; nil leaves a field as it is.
///
/// A new goal or policy is a new rule revision, effective from `rulesFrom`.
public struct HabitChanges: Sendable {
    /// A new name no other habit has (a change of letter case only is allowed).
    public var name: String?
    public var startedOn: LocalDay?
    public var goal: Double?
    public var unit: String?
    public var schedule: PolicyChoice?
    public var progress: PolicyChoice?
    public var streak: PolicyChoice?
    /// New reminder times (empty: none), a rule change like the others.
    public var reminders: [ReminderTime]?
    /// A new colour tag; `.some(nil)` takes the tag away.
    public var colorTag: HabitColor?? = .none
    /// A new step for `+`; `.some(nil)` goes back to 1.
    public var step: Double?? = .none
    /// A new question or description; empty takes it away. Neither is a rule.
    public var question: String?
    public var details: String?
    /// A new place in the list, counted from 1 (past the end: last).
    public var position: Int?
    /// New parameters for the policy a role already runs, for a role whose policy is not named.
    public var parameters: [PolicyRole: [String: JSONValue]] = [:]
    public var rulesFrom: RevisionStart

    public init(
        name: String? = nil, startedOn: LocalDay? = nil, goal: Double? = nil, unit: String? = nil,
        schedule: PolicyChoice? = nil, progress: PolicyChoice? = nil, streak: PolicyChoice? = nil,
        rulesFrom: RevisionStart = .today
    ) {
        self.rulesFrom = rulesFrom
        self.name = name
        self.startedOn = startedOn
        self.goal = goal
        self.unit = unit
        self.schedule = schedule
        self.progress = progress
        self.streak = streak
    }

    /// Whether the goal, a policy or the reminders change.
    public var changesRules: Bool { goal != nil || schedule != nil || progress != nil || streak != nil || reminders != nil || !parameters.isEmpty }

    /// Whether nothing at all would change.
    public var isEmpty: Bool {
        !changesRules && name == nil && startedOn == nil && unit == nil && colorTag == nil && step == nil && position == nil
            && question == nil && details == nil
    }
}
