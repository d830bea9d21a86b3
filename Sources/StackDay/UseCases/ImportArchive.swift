import Foundation

/// Writes a `HabitArchive` into the store; importing the same archive again changes nothing.
///
/// Everything is checked before anything is written: each completion and skip must belong to
/// a habit of the archive or the store and fall on a recordable day, and a habit must not take
/// the name of a different habit. Habits, completions and skips already stored (same id) are
/// left as they are. Completions are written in batches, each its own transaction, so an
/// interrupted import can simply be run again.
public struct ImportArchive {
    public let context: HabitContext
    public let batchSize: Int

    public init(context: HabitContext, batchSize: Int = 100_000) {
        self.context = context
        self.batchSize = batchSize
    }

    /// Returns how many records were written and how many were already present.
    @discardableResult
    public func callAsFunction(_ archive: HabitArchive, progress: ((Int, Int) -> Void)? = nil) throws -> ImportSummary {
        let today = context.today
        var habits: [UUID: Habit] = [:]
        var newHabits: [Habit] = []
        var present = 0
        try context.store.read {
            for habit in try context.store.habits.all() { habits[habit.id] = habit }
            var names: [String: UUID] = [:]
            for habit in habits.values { names[HabitName.key(habit.name)] = habit.id }
            for habit in archive.habits {
                if habits[habit.id] != nil { present += 1; continue }
                if let other = names[HabitName.key(habit.name)], other != habit.id { throw UseCaseError.duplicateName(name: habit.name) }
                _ = try context.policies.policies(for: habit)
                names[HabitName.key(habit.name)] = habit.id
                habits[habit.id] = habit
                newHabits.append(habit)
            }
        }
        for completion in archive.completions {
            guard let habit = habits[completion.habitID] else { throw UseCaseError.habitNotFound(name: completion.habitID.uuidString) }
            try TrackingRules.requireRecordable(completion.completedOn, habit: habit, today: today)
        }
        for skip in archive.skips {
            guard let habit = habits[skip.habitID] else { throw UseCaseError.habitNotFound(name: skip.habitID.uuidString) }
            try TrackingRules.requireRecordable(skip.day, habit: habit, today: today)
        }
        context.store.prepareForBulkWrite(records: archive.completions.count + archive.skips.count)
        var inserted = 0
        try context.store.write {
            for habit in newHabits { try context.store.habits.insert(habit) }
            for skip in archive.skips {
                if try context.store.skips.skip(id: skip.id) != nil { present += 1 } else { try context.store.skips.insert(skip); inserted += 1 }
            }
        }
        inserted += newHabits.count
        let total = archive.completions.count
        let summary = try ImportCompletions(context: context, batchSize: batchSize)(archive.completions) { done in progress?(done, total) }
        return ImportSummary(inserted: inserted + summary.inserted, alreadyPresent: present + summary.alreadyPresent)
    }
}
