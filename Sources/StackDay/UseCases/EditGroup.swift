import Foundation

/// Renames a group, or changes its members and rules from a day: days before it keep the
/// revision that judged them.
public struct EditGroup {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// What an edit changes; nil leaves a field as it is.
    public struct Changes: Sendable {
        public var name: String?
        public var members: [String]?
        public var rule: PolicyChoice?
        /// Parameters for the rule in force, when no rule is named.
        public var ruleParameters: [String: JSONValue]?
        public var streak: PolicyChoice?
        public var streakParameters: [String: JSONValue]?
        /// The day new rules take effect; today when nil.
        public var from: LocalDay?

        public init(name: String? = nil, members: [String]? = nil, rule: PolicyChoice? = nil, ruleParameters: [String: JSONValue]? = nil,
                    streak: PolicyChoice? = nil, streakParameters: [String: JSONValue]? = nil, from: LocalDay? = nil) {
            self.name = name
            self.members = members
            self.rule = rule
            self.ruleParameters = ruleParameters
            self.streak = streak
            self.streakParameters = streakParameters
            self.from = from
        }

        var changesRules: Bool { members != nil || rule != nil || ruleParameters != nil || streak != nil || streakParameters != nil }
    }

    /// Throws `GroupError` for an unknown group or member, a taken name, nothing to change, or a
    /// day before the latest revision's; what the rules throw when bound.
    @discardableResult
    public func callAsFunction(_ name: String, _ changes: Changes) throws -> HabitGroup {
        guard changes.name != nil || changes.changesRules else { throw GroupError.nothingToChange(group: name) }
        if let from = changes.from, from > context.today { throw UseCaseError.futureDay(day: from, today: context.today) }
        let rules = GroupRules(context: context)
        return try context.store.write { tx in
            var group = try rules.group(named: name, in: tx)
            if let renamed = changes.name {
                try rules.requireUniqueName(renamed, except: group.id, in: tx)
                group = try group.renamed(renamed)
            }
            if changes.changesRules {
                let latest = group.latest
                // A policy named again keeps its pin; new parameters alone are the running policy's.
                func keepingPin(_ named: PolicyChoice?, _ parameters: [String: JSONValue]?, _ existing: PolicyChoice) -> PolicyChoice? {
                    let choice = named ?? parameters.map { PolicyChoice(name: existing.name, parameters: $0) }
                    guard let choice, choice.sha256 == nil else { return choice }
                    return existing.name == choice.name ? choice.pinned(to: existing.sha256) : choice
                }
                let members = try changes.members.map { try rules.members($0, in: tx).map(\.id) }
                let revised = try latest.with(members: members, rule: keepingPin(changes.rule, changes.ruleParameters, latest.rule),
                                              streak: keepingPin(changes.streak, changes.streakParameters, latest.streak))
                group = try group.appending(try rules.pinned(revised, in: tx), from: changes.from ?? context.today, at: context.clock.now)
                try rules.validate(group, in: tx)
            }
            try tx.groups.put(group)
            return group
        }
    }
}
