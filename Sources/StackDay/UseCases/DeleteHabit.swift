import Foundation

/// Deletes a habit with its completions and skips.
public struct DeleteHabit {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Returns the deleted habit.
    @discardableResult
    public func callAsFunction(_ reference: HabitReference) throws -> Habit {
        try context.store.write { tx in
            let habit = try context.habit(reference, in: tx)
            try tx.completions.deleteAll(habitID: habit.id)
            try tx.skips.deleteAll(habitID: habit.id)
            try tx.habits.delete(id: habit.id)
            return habit
        }
    }

    /// The same, naming the habit by name.
    @discardableResult
    public func callAsFunction(habitName: String) throws -> Habit {
        try callAsFunction(.name(habitName))
    }
}
