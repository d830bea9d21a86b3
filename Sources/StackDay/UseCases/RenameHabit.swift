import Foundation

/// Gives a habit a new name no other habit has.
public struct RenameHabit {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Changing only the letter case of a habit's own name is allowed.
    @discardableResult
    public func callAsFunction(_ reference: HabitReference, to newName: String) throws -> Habit {
        try context.store.write { tx in
            let habit = try context.habit(reference, in: tx)
            let renamed = try habit.with(name: newName, updatedAt: context.clock.now)
            try context.requireUniqueName(renamed.name, except: habit.id, in: tx)
            try tx.habits.update(renamed)
            return renamed
        }
    }

    /// The same, naming the habit by name.
    @discardableResult
    public func callAsFunction(habitName: String, to newName: String) throws -> Habit {
        try callAsFunction(.name(habitName), to: newName)
    }
}
