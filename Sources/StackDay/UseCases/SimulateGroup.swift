import Foundation

/// A group's figures as stored and under a proposed group rule or streak rule: the rule lab and
/// `policy simulate --group`. Nothing is written.
public struct SimulateGroup {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// The group as stored and as it would be with `choice` serving `role` (`.group` or
    /// `.streak`) from `from` (as `group edit --from` would write it), or over its whole history
    /// when `from` is nil. Throws `GroupError.groupNotFound`, `.revisionBeforeEarlier` for a day
    /// before the latest change, `UseCaseError.futureDay`, and what binding the proposal throws
    /// (an unknown policy, one that does not serve the role, parameters it refuses); a proposal
    /// that fails on a day is its `proposed` failure.
    public func callAsFunction(_ name: String, policy: String, parameters: [String: JSONValue]?, role: PolicyRole, from: LocalDay?) throws -> GroupSimulation {
        precondition(role == .group || role == .streak, "a group has a group rule and a streak rule")
        if let from, from > context.today { throw UseCaseError.futureDay(day: from, today: context.today) }
        // The script the name resolves to now, stored or not (a folder's file is never stored here).
        let script = try context.directory.resolve(policy).script
        let rules = GroupRules(context: context)
        return try context.store.read { tx in
            let group = try rules.group(named: name, in: tx)
            let existing = group.latest.choice(for: role)
            let choice = PolicyChoice(name: script.name, parameters: parameters ?? (existing.name == script.name ? existing.parameters : [:]), sha256: script.sha256)
            let scripts = OverlayScripts(base: tx.scripts, extra: script)
            try context.checkParameters([choice], scripts: scripts)
            let proposed = if let from {
                try group.appending(try group.latest.with(choice, for: role), from: max(from, group.startedOn), at: context.clock.now)
            } else {
                try group.replacing(revisions: try group.revisions.map { try $0.with(choice, for: role) })
            }
            // Bound before it is judged: a policy that does not serve the role is refused, not a failed day.
            try rules.validate(proposed, in: tx, scripts: scripts)
            let judged = try SummarizeGroups(context: context).summaries(of: [group, proposed], in: tx, scripts: scripts)
            return GroupSimulation(current: judged[0], proposed: judged[1], proposal: proposed.latest)
        }
    }
}
