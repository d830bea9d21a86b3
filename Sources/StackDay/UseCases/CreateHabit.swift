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
    /// `startedOn` defaults to today; the habit goes last in the list. Writes rule revision 1, its policies pinned to the
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
        colorTag: HabitColor? = nil,
        step: Double? = nil,
        question: String? = nil,
        details: String? = nil,
        id: UUID? = nil
    ) throws -> Habit {
        let made = try Habit(
            id: id, name: name, startedOn: startedOn ?? context.today, createdAt: context.clock.now,
            goal: goal, unit: unit, schedule: schedule, progress: progress, streak: streak, reminders: reminders,
            colorTag: colorTag, step: step, question: question, details: details
        )
        try Habit.checkNewUnit(made.unit)
        return try context.store.write { tx in
            try context.requireUniqueName(made.name, in: tx)
            // A new habit goes last in the list.
            let held = try tx.habits.all()
            try context.limits(in: tx).check(.habits, holding: held.count + 1)
            let habit = try made.with(position: HabitOrder.next(after: held), updatedAt: made.updatedAt)
            let pinner = PolicyPinner(context: context)
            var pinned = try pinner.pin(habit, in: tx)
            // A schedule counting weeks begins them on the user's week start.
            let schedule = try WeekStartRules(context: context).defaulted(pinned.latest.schedule, of: pinned, in: tx)
            if schedule != pinned.latest.schedule {
                pinned = try pinned.replacing(revisions: [try pinned.latest.with(schedule: schedule)])
            }
            try context.checkParameters(PolicyRole.habitRoles.map { pinned.latest.choice(for: $0) }, in: tx)
            try pinner.validate(pinned, in: tx)
            try tx.habits.insert(pinned)
            return pinned
        }
    }
}
