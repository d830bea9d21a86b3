import Foundation

/// One version of a group's rules, in force from `effectiveFrom` until the next revision's day:
/// its members in their order, the rule judging its days and the rule of its streak. Days before
/// it keep the revision before; a rollback writes an earlier revision's rules again (`takesBack`).
public struct GroupRevision: Hashable, Sendable {
    /// The most members a group holds.
    public static let memberLimit = 50

    public let number: Int
    public let effectiveFrom: LocalDay
    /// The members' habit ids, in the group's order, each once.
    public let members: [UUID]
    /// The group rule (a policy serving the group role, `all` unless chosen).
    public let rule: PolicyChoice
    /// The streak rule over the group's days (a policy serving the streak role).
    public let streak: PolicyChoice
    public let createdAt: Date
    /// The revision whose rules this one writes again, for a rollback; nil otherwise.
    public let takesBack: Int?

    /// Throws `GroupError` for no members, a member twice, too many, or a bad number.
    public init(number: Int, effectiveFrom: LocalDay, members: [UUID], rule: PolicyChoice = .allMembers, streak: PolicyChoice = .strict,
                createdAt: Date, takesBack: Int? = nil) throws(GroupError) {
        guard number >= 1 else { throw .invalidRevisionNumber(number) }
        guard !members.isEmpty else { throw .noMembers }
        guard members.count <= Self.memberLimit else { throw .tooManyMembers(count: members.count, limit: Self.memberLimit) }
        guard Set(members).count == members.count else { throw .memberTwice }
        self.number = number
        self.effectiveFrom = effectiveFrom
        self.members = members
        self.rule = rule
        self.streak = streak
        self.createdAt = createdAt
        self.takesBack = takesBack
    }

    /// A copy with some rules replaced.
    public func with(members: [UUID]? = nil, rule: PolicyChoice? = nil, streak: PolicyChoice? = nil) throws(GroupError) -> GroupRevision {
        try GroupRevision(number: number, effectiveFrom: effectiveFrom, members: members ?? self.members, rule: rule ?? self.rule,
                          streak: streak ?? self.streak, createdAt: createdAt, takesBack: takesBack)
    }

    /// The policy serving `role`: the group rule, or the streak rule for `.streak`.
    public func choice(for role: PolicyRole) -> PolicyChoice {
        role == .streak ? streak : rule
    }

    /// A copy with `choice` serving `role` (the group rule, or the streak rule for `.streak`).
    public func with(_ choice: PolicyChoice, for role: PolicyRole) throws(GroupError) -> GroupRevision {
        role == .streak ? try with(streak: choice) : try with(rule: choice)
    }

    /// The same rules under another number, day and time: what an edit or a rollback writes.
    public func renumbered(_ number: Int, effectiveFrom: LocalDay, createdAt: Date, takesBack: Int? = nil) throws(GroupError) -> GroupRevision {
        try GroupRevision(number: number, effectiveFrom: effectiveFrom, members: members, rule: rule, streak: streak, createdAt: createdAt, takesBack: takesBack)
    }

    /// Whether the members and rules (with their pins) are those of `other`.
    public func sameRules(as other: GroupRevision) -> Bool {
        members == other.members && rule == other.rule && streak == other.streak
    }
}

extension PolicyChoice {
    /// The default group rule: done when every member due that day is done.
    public static let allMembers = PolicyChoice(name: "all")
}
