import Foundation

/// Creates a habit with a name no other habit has (compared case-insensitively).
public struct CreateHabit {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Throws `HabitValidationError` for bad fields, `UseCaseError.duplicateName`,
    /// `PolicyParameterError` for parameters a policy's schema refuses, or the policy resolver's
    /// error for an unknown policy or parameters its `validate` rejects.
    /// `startedOn` defaults to today. Writes rule revision 1, its policies pinned to the
    /// scripts they resolve to now (stored with it).
    @discardableResult
    public func callAsFunction(
        name: String,
        startedOn: LocalDay? = nil,
        goal: Double = 1,
        unit: String = "",
        schedule: PolicyChoice = .daily,
        progress: PolicyChoice = .goal,
        streak: PolicyChoice = .strict,
        reminders: [ReminderTime] = [],
        id: UUID = UUID()
    ) throws -> Habit {
        let habit = try Habit(
            id: id, name: name, startedOn: startedOn ?? context.today, createdAt: context.clock.now,
            goal: goal, unit: unit, schedule: schedule, progress: progress, streak: streak, reminders: reminders
        )
        try Habit.checkNewUnit(habit.unit)
        return try context.store.write { tx in
            try context.requireUniqueName(habit.name, in: tx)
            let pinner = PolicyPinner(context: context)
            let pinned = try pinner.pin(habit, in: tx)
            try context.checkParameters(PolicyRole.allCases.map { pinned.latest.choice(for: $0) }, in: tx)
            try pinner.validate(pinned, in: tx)
            try tx.habits.insert(pinned)
            return pinned
        }
    }
}
