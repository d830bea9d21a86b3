import Foundation

/// Stops tracking a habit after a day (the archive day is the last tracked day, inclusive).
public struct ArchiveHabit {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Archives on `day` (default today); throws when it is already archived, when `day` is
    /// in the future or before `startedOn`.
    @discardableResult
    public func callAsFunction(_ reference: HabitReference, on day: LocalDay? = nil) throws -> Habit {
        let today = context.today
        let day = day ?? today
        return try context.store.write { tx in
            let habit = try context.habit(reference, in: tx)
            if let archivedOn = habit.archivedOn { throw UseCaseError.alreadyArchived(habit: habit.name, archivedOn: archivedOn) }
            guard day <= today else { throw UseCaseError.futureDay(day: day, today: today) }
            let archived = try habit.with(archivedOn: .some(day), updatedAt: context.clock.now)
            try tx.habits.update(archived)
            return archived
        }
    }

    /// The same, naming the habit by name.
    @discardableResult
    public func callAsFunction(habitName: String, on day: LocalDay? = nil) throws -> Habit {
        try callAsFunction(.name(habitName), on: day)
    }
}
