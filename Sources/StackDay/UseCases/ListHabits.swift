/// Every habit, in creation order.
public struct ListHabits {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// With `includeArchived` false, archived habits are left out.
    public func callAsFunction(includeArchived: Bool = true) throws -> [Habit] {
        try context.store.read { tx in
            try tx.habits.all().filter { includeArchived || $0.archivedOn == nil }
        }
    }
}
