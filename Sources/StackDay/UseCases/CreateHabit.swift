import Foundation

/// Creates a habit with a name no other habit has (compared case-insensitively).
public struct CreateHabit {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Throws `HabitValidationError` for bad fields, `UseCaseError.duplicateName`,
    /// or the policy resolver's error for an unknown policy or rejected parameters.
    /// `startedOn` defaults to today.
    @discardableResult
    public func callAsFunction(
        name: String,
        startedOn: LocalDay? = nil,
        goal: Double = 1,
        unit: String = "",
        schedule: PolicyChoice = .daily,
        progress: PolicyChoice = .goal,
        streak: PolicyChoice = .strict,
        id: UUID = UUID()
    ) throws -> Habit {
        let habit = try Habit(
            id: id, name: name, startedOn: startedOn ?? context.today, createdAt: context.clock.now,
            goal: goal, unit: unit, schedule: schedule, progress: progress, streak: streak
        )
        _ = try context.policies.policies(for: habit)
        return try context.store.write { tx in
            try context.requireUniqueName(habit.name, in: tx)
            try tx.habits.insert(habit)
            return habit
        }
    }
}
