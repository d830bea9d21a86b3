import Foundation

/// Resumes tracking an archived habit; the days since its archive day count again.
public struct UnarchiveHabit {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Throws `UseCaseError.notArchived` when the habit is active.
    @discardableResult
    public func callAsFunction(_ reference: HabitReference) throws -> Habit {
        try context.store.write { tx in
            let habit = try context.habit(reference, in: tx)
            guard habit.archivedOn != nil else { throw UseCaseError.notArchived(habit: habit.name) }
            let active = try habit.with(archivedOn: .some(nil), updatedAt: context.clock.now)
            try tx.habits.update(active)
            return active
        }
    }

    /// The same, naming the habit by name.
    @discardableResult
    public func callAsFunction(habitName: String) throws -> Habit {
        try callAsFunction(.name(habitName))
    }
}
