import Foundation

/// One habit, by name (ignoring case) or by id.
public struct FindHabit {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Throws `UseCaseError.habitNotFound` or `.habitIDNotFound`.
    public func callAsFunction(_ reference: HabitReference) throws -> Habit {
        try context.store.read { tx in try context.habit(reference, in: tx) }
    }

    /// The same, by name.
    public func callAsFunction(named name: String) throws -> Habit {
        try callAsFunction(.name(name))
    }
}
