import Foundation

/// Changes a habit's goal, unit, start day or policies.
public struct EditHabit {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Throws for invalid fields or policies; a new start day may not be in the future.
    @discardableResult
    public func callAsFunction(_ reference: HabitReference, changes: HabitChanges) throws -> Habit {
        let today = context.today
        if let startedOn = changes.startedOn, startedOn > today { throw UseCaseError.futureDay(day: startedOn, today: today) }
        return try context.store.write { tx in
            let habit = try context.habit(reference, in: tx)
            let edited = try habit.with(
                startedOn: changes.startedOn, goal: changes.goal, unit: changes.unit,
                schedule: changes.schedule, progress: changes.progress, streak: changes.streak,
                updatedAt: context.clock.now
            )
            _ = try context.policies.policies(for: edited)
            try tx.habits.update(edited)
            return edited
        }
    }

    /// The same, naming the habit by name.
    @discardableResult
    public func callAsFunction(habitName: String, changes: HabitChanges) throws -> Habit {
        try callAsFunction(.name(habitName), changes: changes)
    }
}
