import Foundation

/// One entry of a habit's rule history: the goal and the three policies in force from a day on.
///
/// Revisions are append-only and numbered from 1. Day D is judged by the highest-numbered
/// revision whose `effectiveFrom` is on or before D; revision 1 also covers any tracked day
/// before every other revision (a start day moved earlier stays under it).
public struct HabitRevision: Hashable, Sendable {
    public let number: Int
    /// The first day these rules judge.
    public let effectiveFrom: LocalDay
    /// How much makes a day done, in the habit's unit.
    public let goal: Double
    public let schedule: PolicyChoice
    public let progress: PolicyChoice
    public let streak: PolicyChoice
    /// When the revision was written.
    public let createdAt: Date
    /// When a calendar feed reminds of a due day (in the user's zone), sorted; none by default.
    /// They decide no figure.
    public let reminders: [ReminderTime]
    /// For a revision a rollback wrote: the first revision it takes back (that one and every
    /// later one before this rollback are taken back); nil for any other.
    public let takesBack: Int?

    /// Throws `HabitValidationError` for a number below 1, an invalid goal or an unsupported day.
    public init(
        number: Int, effectiveFrom: LocalDay, goal: Double,
        schedule: PolicyChoice, progress: PolicyChoice, streak: PolicyChoice, createdAt: Date, reminders: [ReminderTime] = [],
        takesBack: Int? = nil
    ) throws(HabitValidationError) {
        guard number >= 1 else { throw .invalidRevisionNumber(number) }
        if let takesBack, takesBack < 1 || takesBack >= number { throw .invalidRevisionNumber(takesBack) }
        guard Quantity.thousandths(goal) != nil else { throw .invalidGoal(goal) }
        guard effectiveFrom.isSupported else { throw .dayOutOfRange(effectiveFrom) }
        self.number = number
        self.effectiveFrom = effectiveFrom
        self.goal = goal
        self.schedule = schedule
        self.progress = progress
        self.streak = streak
        self.createdAt = createdAt
        self.reminders = reminders
        self.takesBack = takesBack
    }

    /// The choice serving `role`, one of `PolicyRole.habitRoles` (a group's rule is a group's).
    public func choice(for role: PolicyRole) -> PolicyChoice {
        switch role {
        case .schedule: schedule
        case .progress: progress
        case .streak: streak
        case .group: preconditionFailure("a habit's revision names no group policy")
        }
    }

    /// The same rules under another number, day and time: what a rollback (`takesBack`) or an
    /// edit writes.
    public func renumbered(_ number: Int, effectiveFrom: LocalDay, createdAt: Date, takesBack: Int? = nil) throws(HabitValidationError) -> HabitRevision {
        try HabitRevision(number: number, effectiveFrom: effectiveFrom, goal: goal,
                          schedule: schedule, progress: progress, streak: streak, createdAt: createdAt, reminders: reminders, takesBack: takesBack)
    }

    /// A copy with some rules replaced.
    public func with(
        goal: Double? = nil, schedule: PolicyChoice? = nil, progress: PolicyChoice? = nil, streak: PolicyChoice? = nil,
        reminders: [ReminderTime]? = nil
    ) throws(HabitValidationError) -> HabitRevision {
        try HabitRevision(number: number, effectiveFrom: effectiveFrom, goal: goal ?? self.goal,
                          schedule: schedule ?? self.schedule, progress: progress ?? self.progress,
                          streak: streak ?? self.streak, createdAt: createdAt, reminders: reminders ?? self.reminders, takesBack: takesBack)
    }

    /// A copy with the choice for `role` replaced.
    public func with(_ choice: PolicyChoice, for role: PolicyRole) throws(HabitValidationError) -> HabitRevision {
        switch role {
        case .schedule: try with(schedule: choice)
        case .progress: try with(progress: choice)
        case .streak: try with(streak: choice)
        case .group: preconditionFailure("a habit's revision names no group policy")
        }
    }

    /// Whether a policy is still named without a pinned script.
    public var isUnpinned: Bool { PolicyRole.habitRoles.contains { choice(for: $0).sha256 == nil } }

    /// Whether the rules (goal, policies with their pins, reminders) are those of `other`.
    public func hasSameRules(as other: HabitRevision) -> Bool {
        goal == other.goal && schedule == other.schedule && progress == other.progress && streak == other.streak && reminders == other.reminders
    }
}
