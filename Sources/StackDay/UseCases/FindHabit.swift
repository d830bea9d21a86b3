import Foundation

/// One habit, by name (ignoring case) or by id.
public struct FindHabit {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Throws `UseCaseError.habitNotFound`.
    public func callAsFunction(named name: String) throws -> Habit {
        try context.store.read { tx in try context.habit(named: name, in: tx) }
    }

    /// Throws `UseCaseError.habitIDNotFound`.
    public func callAsFunction(id: UUID) throws -> Habit {
        try context.store.read { tx in try context.habit(id: id, in: tx) }
    }
}
