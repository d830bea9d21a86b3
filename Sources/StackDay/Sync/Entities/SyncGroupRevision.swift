/// A group's members and rules from a day, as sync carries them: revision `number` of group
/// `group`.
public struct SyncGroupRevision: SyncNumbered {
    public var group = ""
    public var number: Int64 = 1
    public var effectiveFrom = LocalDay(uncheckedOrdinal: 0)
    /// The members' habit ids, in the group's order.
    public var members: [String] = []
    /// The group rule, then the streak rule.
    public var rule = SyncRevision.Rule(policy: "", params: "{}")
    public var streak = SyncRevision.Rule(policy: "", params: "{}")
    public var createdAt = 0.0
    public var takesBack: Int64?

    public init(group: String, number: Int64, effectiveFrom: LocalDay, members: [String], rule: SyncRevision.Rule, streak: SyncRevision.Rule,
                createdAt: Double, takesBack: Int64? = nil) {
        self.group = group
        self.number = number
        self.effectiveFrom = effectiveFrom
        self.members = members
        self.rule = rule
        self.streak = streak
        self.createdAt = createdAt
        self.takesBack = takesBack
    }

    private init() {}

    public static let kind = SyncKind.groupRevision
    public static let blank = SyncGroupRevision()
    public var key: String { SyncRules.revisionKey(habit: group, number: number) }
    public var parent: String { group }
    public var entity: SyncEntity { .groupRevision(self) }

    public static let fields: [SyncField<SyncGroupRevision>] = [
        .text("group", .uuid, \.group), .integer("number", .count, \.number, absent: 1), .day("effectiveFrom", \.effectiveFrom),
        SyncField("members", .members, read: { .array($0.members.map(JSONValue.string)) },
                  write: { $0.members = $1?.arrayValue?.compactMap(\.stringValue) ?? [] }),
        .text("groupPolicy", .text(limit: 200, empty: false), \.rule.policy), .text("groupParams", .parameters, \.rule.params),
        .optionalText("groupSha256", .optionalHash, \.rule.sha256),
        .text("streakPolicy", .text(limit: 200, empty: false), \.streak.policy), .text("streakParams", .parameters, \.streak.params),
        .optionalText("streakSha256", .optionalHash, \.streak.sha256),
        .instant("createdAt", \.createdAt), .optionalInteger("takesBack", .optionalCount, \.takesBack),
    ]

    public var pins: [String] { [rule.sha256, streak.sha256].compactMap { $0 } }

    public func sameRules(as other: SyncGroupRevision) -> Bool {
        group == other.group && effectiveFrom == other.effectiveFrom && members == other.members && createdAt == other.createdAt
            && takesBack == other.takesBack && rule.same(as: other.rule) && streak.same(as: other.streak)
    }

    public func filling(from other: SyncGroupRevision) -> SyncGroupRevision? {
        var filled = self
        if filled.rule.sha256 == nil { filled.rule.sha256 = other.rule.sha256 }
        if filled.streak.sha256 == nil { filled.streak.sha256 = other.streak.sha256 }
        return filled == self ? nil : filled
    }

    public func numbered(_ number: Int64) -> SyncGroupRevision {
        var moved = self
        moved.number = number
        return moved
    }
}
