import Foundation

/// Writes a `HabitArchive` into the store in one transaction; importing the same archive again
/// changes nothing.
///
/// An import restores what an export wrote, so it accepts every state a store can hold
/// (scripts, every rule revision, pins as they were):
/// records outside a habit's tracking period (kept, not counted) included. What it refuses —
/// a record of a habit that is neither in the archive nor the store, a habit that takes the name
/// of a different one, policies that refuse a habit, a day whose total would pass
/// `Quantity.maximum` — fails the whole import with nothing written. Habits, completions and
/// skips already stored (same id) are left as they are.
public struct ImportArchive {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Returns how many records were written and how many were already present. `progress` is
    /// told the completions handled so far and their number.
    @discardableResult
    public func callAsFunction(_ archive: HabitArchive, progress: ((Int, Int) -> Void)? = nil) throws -> ImportSummary {
        context.store.prepareForBulkWrite(records: archive.completions.count + archive.skips.count)
        return try context.store.write { tx in
            var habits: [UUID: Habit] = [:]
            for habit in try tx.habits.all() { habits[habit.id] = habit }
            var names: [String: UUID] = [:]
            for habit in habits.values { names[Habit.nameKey(for: habit.name)] = habit.id }
            var inserted = 0
            var present = 0
            // Scripts are not counted as records: a stored one is kept, a new one added, and
            // each stored copy is read back and checked against its hash before anything commits.
            for script in archive.scripts {
                try script.checkIsText()
                try tx.scripts.insert(script)
                // Reading a script back checks its hash (`PolicyScriptError.tampered`).
                guard try tx.scripts.script(sha256: script.sha256) != nil else { throw PolicyScriptError.missing(name: script.name, sha256: script.sha256) }
            }
            let pinner = PolicyPinner(context: context)
            for var habit in archive.habits {
                if habits[habit.id] != nil { present += 1; continue }
                try Habit.checkNewName(habit.name, restoring: true)
                if let other = names[Habit.nameKey(for: habit.name)], other != habit.id { throw UseCaseError.duplicateName(name: habit.name) }
                // An archive written before scripts were kept names policies only: pin them now.
                habit = try pinner.pin(habit, in: tx)
                try pinner.validate(habit, in: tx)
                names[Habit.nameKey(for: habit.name)] = habit.id
                habits[habit.id] = habit
                try tx.habits.insert(habit)
                inserted += 1
            }
            func habit(_ id: UUID) throws -> Habit {
                guard let habit = habits[id] else { throw UseCaseError.habitIDNotFound(id: id) }
                return habit
            }
            for skip in archive.skips {
                _ = try habit(skip.habitID)
                guard skip.day.isSupported else { throw UseCaseError.dayOutOfRange(day: skip.day) }
                if try tx.skips.skip(id: skip.id) != nil { present += 1 } else { try tx.skips.insert(skip); inserted += 1 }
            }
            var dayTotals = try ImportDayTotals(in: tx, completions: archive.completions)
            let total = archive.completions.count
            let owners = try archive.completions.map { try habit($0.habitID) }
            let counts = try dayTotals.insert(archive.completions[...], owners: owners, into: tx.completions) { done in
                if done % 10_000 == 0 || done == total { progress?(done, total) }
            }
            inserted += counts.inserted
            present += counts.present
            return ImportSummary(inserted: inserted, alreadyPresent: present)
        }
    }
}
