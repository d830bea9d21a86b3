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
/// skips already stored (same id) are left as they are. In a store whose user syncs, what the
/// log holds as deleted (a habit deleted, a record undone) stays deleted, with a deleted habit's
/// records and skips: an older export never brings back what every replica has deleted
/// (`ImportSummary.keptDeleted` counts them). Groups come in after the habits, each counted as
/// one record: a group whose members are not all among the habits, or which takes another
/// group's name, fails the import.
public struct ImportArchive {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Returns how many records were written and how many were already present. `progress` is
    /// told the records handled so far and their number.
    @discardableResult
    public func callAsFunction(_ archive: HabitArchive, progress: ((Int, Int) -> Void)? = nil) throws -> ImportSummary {
        try callAsFunction(source: archive, progress: progress)
    }

    /// The same from a source read as a stream: its catalog first, then its records a slice at a
    /// time, all in one transaction (a record found malformed late still leaves nothing written).
    @discardableResult
    public func callAsFunction(source: some ArchiveSource, progress: ((Int, Int) -> Void)? = nil) throws -> ImportSummary {
        let catalog = try source.catalog()
        context.store.prepareForBulkWrite(records: catalog.records)
        let summary = try write(catalog, source: source, progress: progress)
        // Figures ready: the first read of an imported user is a cache read.
        if summary.inserted > 0 { PrepareFigures(context: context)() }
        return summary
    }

    private func write(_ catalog: ArchiveCatalog, source: some ArchiveSource, progress: ((Int, Int) -> Void)?) throws -> ImportSummary {
        try context.store.write { tx in
            var habits: [UUID: Habit] = [:]
            for habit in try tx.habits.all() { habits[habit.id] = habit }
            var names: [String: UUID] = [:]
            for habit in habits.values { names[Habit.nameKey(for: habit.name)] = habit.id }
            var inserted = 0
            var present = 0
            var keptDeleted = 0
            let buried: (habits: Set<String>, completions: Set<String>, skips: Set<String>) = try tx.sync.map {
                (try $0.deletedKeys(.habit), try $0.deletedKeys(.completion), try $0.deletedKeys(.skip))
            } ?? ([], [], [])
            func isBuried(_ id: UUID, in keys: Set<String>) -> Bool { !keys.isEmpty && keys.contains(id.uuidString) }
            // Scripts are not counted as records: a stored one is kept, a new one added, and
            // each stored copy is read back and checked against its hash before anything commits.
            for script in catalog.scripts {
                try script.checkIsText()
                try tx.scripts.insert(script)
                // Reading a script back checks its hash (`PolicyScriptError.tampered`).
                guard try tx.scripts.script(sha256: script.sha256) != nil else { throw PolicyScriptError.missing(name: script.name, sha256: script.sha256) }
            }
            let pinner = PolicyPinner(context: context)
            var buriedHabits: Set<UUID> = []
            // Into an empty store the archive's order comes as it was; into one holding habits, the
            // new ones go after them, in the archive's order.
            let lastHeld = habits.isEmpty ? nil : habits.values.map(\.position).max() ?? 0
            for var habit in catalog.habits {
                if habits[habit.id] != nil { present += 1; continue }
                if isBuried(habit.id, in: buried.habits) {
                    buriedHabits.insert(habit.id)
                    keptDeleted += 1
                    continue
                }
                try Habit.checkNewName(habit.name)
                try Habit.checkNewUnit(habit.unit)
                if let other = names[Habit.nameKey(for: habit.name)], other != habit.id { throw UseCaseError.duplicateName(name: habit.name) }
                // An archive written before scripts were kept names policies only: pin them now.
                habit = try pinner.pin(habit, in: tx)
                try pinner.validate(habit, in: tx)
                if let lastHeld { habit = try habit.with(position: min(lastHeld + inserted + 1, Habit.positionLimit), updatedAt: habit.updatedAt) }
                names[Habit.nameKey(for: habit.name)] = habit.id
                habits[habit.id] = habit
                try tx.habits.insert(habit)
                inserted += 1
            }
            let groupRules = GroupRules(context: context)
            var heldGroups = Set(try tx.groups.all().map(\.id))
            for group in catalog.groups {
                if heldGroups.contains(group.id) { present += 1; continue }
                try groupRules.requireUniqueName(group.name, in: tx)
                for id in Set(group.revisions.flatMap(\.members)) where habits[id] == nil && !buriedHabits.contains(id) {
                    throw UseCaseError.habitIDNotFound(id: id)
                }
                // An archive's pins are kept; a rule named without one is pinned as a new group's is.
                let pinned = try HabitGroup(id: group.id, name: group.name, createdAt: group.createdAt,
                                            revisions: try group.revisions.map { try groupRules.pinned($0, in: tx) })
                try groupRules.validate(pinned, in: tx)
                try context.limits(in: tx).check(.groups, holding: heldGroups.count + 1)
                try tx.groups.put(pinned)
                heldGroups.insert(pinned.id)
                inserted += 1
            }
            func habit(_ id: UUID) throws -> Habit {
                guard let habit = habits[id] else { throw UseCaseError.habitIDNotFound(id: id) }
                return habit
            }
            var dayTotals = ImportDayTotals(in: tx)
            var batch: [Completion] = []
            batch.reserveCapacity(ImportDayTotals.sliceSize)
            var done = 0
            var reported = 0
            func report() {
                if done - reported >= 10_000 || done == catalog.records { progress?(done, catalog.records); reported = done }
            }
            func flush() throws {
                guard !batch.isEmpty else { return }
                let counts = try dayTotals.insert(batch[...], owners: try batch.map { try habit($0.habitID) }, into: tx.completions)
                inserted += counts.inserted
                present += counts.present
                done += batch.count
                batch.removeAll(keepingCapacity: true)
                report()
            }
            // A record or skip the log holds as deleted, or one of a habit kept deleted: counted, not written.
            func keepsDeleted(_ id: UUID, of habit: UUID, _ keys: Set<String>) -> Bool {
                guard buriedHabits.contains(habit) || isBuried(id, in: keys) else { return false }
                keptDeleted += 1
                done += 1
                report()
                return true
            }
            try source.forEachRecord { record in
                switch record {
                case .completion(let completion):
                    if keepsDeleted(completion.id, of: completion.habitID, buried.completions) { return }
                    batch.append(completion)
                    if batch.count == ImportDayTotals.sliceSize { try flush() }
                case .skip(let skip):
                    if keepsDeleted(skip.id, of: skip.habitID, buried.skips) { return }
                    _ = try habit(skip.habitID)
                    guard skip.day.isSupported else { throw UseCaseError.dayOutOfRange(day: skip.day) }
                    if try tx.skips.skip(id: skip.id) != nil { present += 1 } else { try tx.skips.insert(skip); inserted += 1 }
                    done += 1
                    report()
                }
            }
            try flush()
            return ImportSummary(inserted: inserted, alreadyPresent: present, unplacedNotes: catalog.unplacedNotes, keptDeleted: keptDeleted)
        }
    }
}
