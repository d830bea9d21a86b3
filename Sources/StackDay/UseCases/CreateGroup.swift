import Foundation

/// Makes a group of habits with a name no other group has.
public struct CreateGroup {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Throws `GroupError` for a bad or taken name, no members or an unknown one; what pinning and
    /// binding the rules throw (an unknown policy, refused parameters, a policy that does not
    /// serve its role); `UseCaseError.quotaExceeded` past the user's `groups` limit. `from`
    /// defaults to the earliest start of its members, so the group is judged over their history.
    @discardableResult
    public func callAsFunction(name: String, members names: [String], rule: PolicyChoice = .allMembers, streak: PolicyChoice = .strict,
                               from: LocalDay? = nil) throws -> HabitGroup {
        if let from, from > context.today { throw UseCaseError.futureDay(day: from, today: context.today) }
        let rules = GroupRules(context: context)
        return try context.store.write { tx in
            try rules.requireUniqueName(name, in: tx)
            try context.limits(in: tx).check(.groups, holding: try tx.groups.all().count + 1)
            let members = try rules.members(names, in: tx)
            let start = from ?? members.map(\.startedOn).min() ?? context.today
            let revision = try rules.pinned(try GroupRevision(number: 1, effectiveFrom: start, members: members.map(\.id), rule: rule,
                                                              streak: streak, createdAt: context.clock.now), in: tx)
            let group = try HabitGroup(name: name, createdAt: context.clock.now, revisions: [revision])
            try rules.validate(group, in: tx)
            try tx.groups.put(group)
            return group
        }
    }
}
