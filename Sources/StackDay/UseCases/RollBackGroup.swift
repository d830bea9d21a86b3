import Foundation

/// Takes back a group's latest change: the rules of the revision before it are in force again
/// from a day (the day the change took effect, unless given), as a habit's rollback does.
public struct RollBackGroup {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Throws `GroupError.nothingToRollBack` for a group with one revision, `.groupNotFound`.
    @discardableResult
    public func callAsFunction(_ name: String, from: LocalDay? = nil) throws -> HabitGroup {
        if let from, from > context.today { throw UseCaseError.futureDay(day: from, today: context.today) }
        let rules = GroupRules(context: context)
        return try context.store.write { tx in
            let group = try rules.group(named: name, in: tx)
            guard group.revisions.count > 1 else { throw GroupError.nothingToRollBack(group: group.name) }
            let latest = group.latest, before = group.revisions[group.revisions.count - 2]
            let revised = try group.appending(before, from: from ?? latest.effectiveFrom, at: context.clock.now, takesBack: latest.number)
            try rules.validate(revised, in: tx)
            try tx.groups.put(revised)
            return revised
        }
    }
}
