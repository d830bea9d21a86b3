/// Removes a group and its revisions; its members stay as they are.
public struct DeleteGroup {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Throws `GroupError.groupNotFound`.
    @discardableResult
    public func callAsFunction(_ name: String) throws -> HabitGroup {
        try context.store.write { tx in
            let group = try GroupRules(context: context).group(named: name, in: tx)
            try tx.groups.delete(id: group.id)
            return group
        }
    }
}
