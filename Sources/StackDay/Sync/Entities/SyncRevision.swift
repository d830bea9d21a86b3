/// A habit's rules from a day, as sync carries them: revision `number` of habit `habit`.
/// Revisions are append-only; their numbers run 1, 2, 3, … without a gap.
public struct SyncRevision: SyncNumbered {
    /// One role's policy: its name, its parameters (a JSON object, as text), and the SHA-256 of
    /// the script it names (nil while unpinned).
    public struct Rule: Sendable, Hashable {
        public var policy: String
        public var params: String
        public var sha256: String?

        public init(policy: String, params: String, sha256: String? = nil) {
            self.policy = policy
            self.params = params
            self.sha256 = sha256
        }

        /// The same policy and parameters, a pin left empty on one side counting as equal.
        public func same(as other: Rule) -> Bool {
            policy.utf8.elementsEqual(other.policy.utf8) && params.utf8.elementsEqual(other.params.utf8)
                && (sha256 == nil || other.sha256 == nil || sha256 == other.sha256)
        }
    }

    public var habit = ""
    public var number: Int64 = 1
    public var effectiveFrom = LocalDay(uncheckedOrdinal: 0)
    public var goalThousandths: Int64 = 1000
    /// One rule for each of `PolicyRole.habitRoles`, in its order.
    public var rules = PolicyRole.habitRoles.map { _ in Rule(policy: "", params: "{}") }
    public var createdAt = 0.0
    /// Reminder times as stored (`08:00,21:00`), empty for none.
    public var reminders = ""
    /// The revision this one takes back (a rollback), if it is one.
    public var takesBack: Int64?

    public init(habit: String, number: Int64, effectiveFrom: LocalDay, goalThousandths: Int64, rules: [Rule], createdAt: Double,
                reminders: String = "", takesBack: Int64? = nil) {
        self.habit = habit
        self.number = number
        self.effectiveFrom = effectiveFrom
        self.goalThousandths = goalThousandths
        self.rules = rules
        self.createdAt = createdAt
        self.reminders = reminders
        self.takesBack = takesBack
    }

    private init() {}

    public static let kind = SyncKind.revision
    public static let blank = SyncRevision()
    public var key: String { SyncRules.revisionKey(habit: habit, number: number) }
    public var parent: String { habit }
    public var entity: SyncEntity { .revision(self) }

    public static let fields: [SyncField<SyncRevision>] =
        [.text("habit", .uuid, \.habit), .integer("number", .count, \.number, absent: 1), .day("effectiveFrom", \.effectiveFrom),
         .integer("goalThousandths", .count, \.goalThousandths, absent: 1000)]
        + PolicyRole.habitRoles.indices.flatMap { index -> [SyncField<SyncRevision>] in
            let role = PolicyRole.habitRoles[index].rawValue
            return [.text(role + "Policy", .text(limit: 200, empty: false), \.rules[index].policy), .text(role + "Params", .parameters, \.rules[index].params),
                    .optionalText(role + "Sha256", .optionalHash, \.rules[index].sha256)]
        }
        + [.instant("createdAt", \.createdAt),
           SyncField("reminders", .reminders, read: { .string($0.reminders) }, write: { $0.reminders = $1?.stringValue ?? "" }),
           .optionalInteger("takesBack", .optionalCount, \.takesBack)]

    public var pins: [String] { rules.compactMap(\.sha256) }

    /// A revision's `createdAt` is the instant its edit was made, so two edits are never the same.
    public func sameRules(as other: SyncRevision) -> Bool {
        guard habit == other.habit, effectiveFrom == other.effectiveFrom, goalThousandths == other.goalThousandths, createdAt == other.createdAt,
              reminders == other.reminders, takesBack == other.takesBack, rules.count == other.rules.count else { return false }
        return zip(rules, other.rules).allSatisfy { $0.same(as: $1) }
    }

    public func filling(from other: SyncRevision) -> SyncRevision? {
        var filled = self
        var changed = false
        for index in rules.indices where rules[index].sha256 == nil && index < other.rules.count && other.rules[index].sha256 != nil {
            filled.rules[index].sha256 = other.rules[index].sha256
            changed = true
        }
        return changed ? filled : nil
    }

    public func numbered(_ number: Int64) -> SyncRevision {
        var moved = self
        moved.number = number
        return moved
    }
}
