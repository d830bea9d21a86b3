import Foundation
import StackDay

/// Merging changes from elsewhere into the log's store: each change's `SyncMerger` decision
/// carried out, in batches, under the stamp it says.
extension SQLSyncRepository {
    /// Writes made until `clearWriter` are stamped as `stamp`'s, not as this replica's.
    func setWriter(_ stamp: SyncStamp) throws {
        try clearWriter()
        try executor.run(sql("INSERT INTO sync_writer (device, hlc) VALUES ($1, $2)"), [.text(stamp.device), .integer(stamp.hlc)])
    }

    func clearWriter() throws {
        try executor.run(sql("DELETE FROM sync_writer"), [])
    }

    /// The name a habit or group is looked up by (`Habit.nameKey`), kept beside its name.
    static func nameKey(of entity: SyncEntity) -> String? {
        switch entity {
        case .habit(let habit): Habit.nameKey(for: habit.name)
        case .group(let group): Habit.nameKey(for: group.name)
        default: nil
        }
    }

    func insert(_ entity: SyncEntity) throws {
        let table = SQLSyncTable.of(entity.kind)
        var names = table.columnList
        var parameters = table.columns.enumerated().map { SQLSyncTable.parameter($0.offset + 2, $0.element.value) }
        var values = [owner] + table.bind(entity)
        if let key = Self.nameKey(of: entity) {
            names += ", name_key"
            parameters.append("$\(values.count + 1)")
            values.append(.text(key))
        }
        try executor.run(sql("INSERT INTO \(table.name) (\(ownerColumn), \(names)) VALUES ($1, \(parameters.joined(separator: ", ")))"), values)
    }

    func update(_ entity: SyncEntity) throws {
        let table = SQLSyncTable.of(entity.kind)
        let keys = table.keyValues(entity.key)
        let changing = zip(table.columns, table.bind(entity)).filter { !table.keyColumns.contains($0.0.name) }
        var assignments = changing.enumerated().map { "\($0.element.0.name) = \(SQLSyncTable.parameter($0.offset + 2 + keys.count, $0.element.0.value))" }
        var values = [owner] + keys + changing.map(\.1)
        if let key = Self.nameKey(of: entity) {
            assignments.append("name_key = $\(values.count + 1)")
            values.append(.text(key))
        }
        try executor.run(sql("UPDATE \(table.name) SET \(assignments.joined(separator: ", ")) WHERE \(ownerColumn) = $1 AND \(table.keyCondition)"), values)
    }

    @discardableResult
    func delete(_ kind: SyncKind, _ key: String) throws -> Int {
        let table = SQLSyncTable.of(kind)
        return try executor.run(sql("DELETE FROM \(table.name) WHERE \(ownerColumn) = $1 AND \(table.keyCondition)"), [owner] + table.keyValues(key))
    }

    /// A tombstone for an entity this replica never held, so that no copy of it is taken later.
    func bury(_ change: SyncChange) throws {
        try executor.run(sql("""
            UPDATE sync_owners SET seq = seq + 1, hlc = CASE WHEN hlc > $2 THEN hlc ELSE $2 END WHERE \(ownerColumn) = $1
            """), [owner, .integer(change.stamp.hlc)])
        try executor.run(sql("""
            INSERT INTO sync_entities (\(ownerColumn), kind, key, seq, hlc, device, deleted)
            SELECT \(ownerColumn), $2, $3, seq, $4, $5, 1 FROM sync_owners WHERE \(ownerColumn) = $1
            ON CONFLICT (\(ownerColumn), kind, key) DO UPDATE SET seq = excluded.seq, hlc = excluded.hlc, device = excluded.device, deleted = 1, own = NULL
            """), [owner, .text(change.kind.rawValue), .text(change.key), .integer(change.stamp.hlc), .text(change.stamp.device)])
    }

    /// What one batch of changes being applied has learned: the stamp its writes carry now, and
    /// the habits it knows are held.
    private final class Batch {
        var writer: SyncStamp?
        /// Habits and groups known held, by kind and key.
        var parents: Set<String> = []
        /// The log entries of the batch's keys as they were before it (`nil` inside: none), and
        /// the keys it has written since, whose entries are read again.
        var entries: [String: SyncLogEntry?] = [:]
        var written: Set<String> = []
        /// New records or skips of one kind and one stamp, inserted together.
        var pending: [(index: Int, change: SyncChange)] = []
        /// The habits and groups the batch created (the change's index, the kind and key), each to
        /// hold its rules by the end.
        var created: [(index: Int, kind: SyncKind, key: String)] = []
    }

    /// Stamps the writes that follow as `stamp`'s (nil: as this replica's own), if they are not already.
    private func write(as stamp: SyncStamp?, _ batch: Batch) throws {
        guard stamp != batch.writer else { return }
        if let stamp { try setWriter(stamp) } else { try clearWriter() }
        batch.writer = stamp
    }

    /// The log entries of many keys of one kind, fifty to a query.
    func entries(_ kind: SyncKind, keys: [String]) throws -> [String: SyncLogEntry] {
        var found: [String: SyncLogEntry] = [:]
        let select = "SELECT \(Self.entryColumns) FROM sync_entities WHERE \(ownerColumn) = $1 AND kind = $2 AND key = "
        for chunk in Self.chunks(keys) {
            let rows = try executor.rows(sql(lookups(select, count: chunk.count, first: 3, value: .text(limit: 128, empty: false))),
                                         [owner, .text(kind.rawValue)] + chunk.map(SQLValue.text), entry)
            for case let entry? in rows { found[entry.key] = entry }
        }
        return found
    }

    /// A key's entry: as read for the whole batch, unless the batch wrote it since (a revision's
    /// is always read again: one the batch renumbered takes a key the batch did not name).
    private func entry(_ kind: SyncKind, _ key: String, _ batch: Batch) throws -> SyncLogEntry? {
        let name = kind.rawValue + key
        if !kind.isRevision, !batch.written.contains(name), let known = batch.entries[name] { return known }
        return try entry(kind, key)
    }

    public func apply(_ changes: [SyncChange], as replica: SyncReplica) throws -> [SyncOutcome] {
        var outcomes = [SyncOutcome](repeating: .kept, count: changes.count)
        let batch = Batch()
        for kind in SyncKind.allCases {
            let keys = Array(Set(changes.filter { $0.kind == kind }.map(\.key)))
            let found = try entries(kind, keys: keys)
            for key in keys { batch.entries[kind.rawValue + key] = .some(found[key]) }
        }
        for index in SyncRules.order(changes) {
            let change = changes[index]
            do {
                // A new record or skip waits to be inserted with the others of its stamp; anything
                // else (or one of another stamp) first inserts those waiting.
                let name = change.kind.rawValue + change.key
                var joins = try joinsInsert(change, name: name, batch)
                if !joins {
                    try flush(batch)
                    joins = try joinsInsert(change, name: name, batch)
                }
                if joins {
                    batch.pending.append((index, change))
                    outcomes[index] = .applied
                } else {
                    outcomes[index] = try apply(change, index: index, as: replica, batch)
                }
                batch.written.insert(name)
            } catch SyncError.invalidChange(_, let reason) {
                throw SyncError.invalidChange(index: index, reason: reason)
            }
        }
        try flush(batch)
        try write(as: nil, batch)
        for (index, kind, key) in batch.created {
            guard let revisions = Self.revisionKind(of: kind), try holds(kind, key), try topRevision(revisions, of: key) == 0 else { continue }
            throw SyncError.invalidChange(index: index, reason: "is a new \(kind.rawValue) without its rules: its revision 1 goes in the same request")
        }
        return outcomes
    }

    /// Whether a change (`name`: its kind and key) is a record or skip this store has never held, of
    /// a habit it holds, that can go in the batch's pending insert (the same kind and stamp, its key
    /// not already there).
    private func joinsInsert(_ change: SyncChange, name: String, _ batch: Batch) throws -> Bool {
        guard change.kind == .completion || change.kind == .skip, !change.deleted else { return false }
        if let first = batch.pending.first?.change, first.kind != change.kind || first.stamp != change.stamp { return false }
        guard !batch.written.contains(name), case .some(nil) = batch.entries[name] else { return false }
        guard let habit = change.habit else { return false }
        return try holds(.habit, habit, batch)
    }

    /// Inserts the pending records or skips, a hundred rows to a statement, under their stamp;
    /// through the store's bulk path, when it has one, each habit's cache is touched once for them
    /// and they enter the change log together after them.
    private func flush(_ batch: Batch) throws {
        guard let first = batch.pending.first?.change else { return }
        try write(as: first.stamp, batch)
        let table = SQLSyncTable.of(first.kind)
        let pending = batch.pending
        batch.pending = []
        func insert() throws -> [String] {
            for start in stride(from: 0, to: pending.count, by: 100) {
                let chunk = pending[start..<min(pending.count, start + 100)]
                var values = [owner]
                values.reserveCapacity(1 + chunk.count * table.columns.count)
                for (_, change) in chunk {
                    if let entity = change.entity { values += table.bind(entity) }
                }
                try executor.run(insertStatement(first.kind, rows: chunk.count), values)
            }
            return pending.map(\.change.key)
        }
        guard let bulk, pending.count > 1 else {
            _ = try insert()
            return
        }
        try bulk.insertingOnce(first.kind, touched: Self.earliestDays(pending.map(\.change)), insert)
    }

    /// Each habit the changes write, with the earliest day they write for it (ISO).
    static func earliestDays(_ changes: [SyncChange]) -> [(habit: String, day: String)] {
        var earliest: [String: String] = [:]
        for change in changes {
            guard let entity = change.entity, let habit = entity.habit, let day = entity.day?.iso else { continue }
            if let known = earliest[habit], known <= day { continue }
            earliest[habit] = day
        }
        return earliest.sorted { $0.key < $1.key }.map { (habit: $0.key, day: $0.value) }
    }

    /// The statement inserting `rows` rows of a kind at once, in the executor's dialect: written
    /// once for each kind and count (a first sync inserts its records ten at a time, thousands of times).
    func insertStatement(_ kind: SyncKind, rows count: Int) -> String {
        let name = "\(kind.rawValue)/\(count)"
        if let known = inserts[name] { return known }
        let table = SQLSyncTable.of(kind)
        let columns = table.columns
        let rows = (0..<count).map { row in
            "($1, " + columns.enumerated().map { SQLSyncTable.parameter(2 + row * columns.count + $0.offset, $0.element.value) }.joined(separator: ", ") + ")"
        }
        let statement = sql("INSERT INTO \(table.name) (\(ownerColumn), \(table.columnList)) VALUES \(rows.joined(separator: ", "))")
        inserts[name] = statement
        return statement
    }

    /// Whether a live habit or group is held, asking the store once a batch.
    private func holds(_ kind: SyncKind, _ key: String, _ batch: Batch) throws -> Bool {
        if batch.parents.contains(kind.rawValue + key) { return true }
        guard try holds(kind, key) else { return false }
        batch.parents.insert(kind.rawValue + key)
        return true
    }

    /// What the merge asks of this store while a batch is applied: the batch's own knowledge
    /// first (entries read for the whole batch, habits it made), then the tables.
    private struct BatchState: SyncMergeState {
        let repository: SQLSyncRepository
        let batch: Batch

        func entry(_ kind: SyncKind, _ key: String) throws -> SyncLogEntry? { try repository.entry(kind, key, batch) }
        func entity(_ kind: SyncKind, _ key: String) throws -> SyncEntity? { try repository.entity(kind, key) }
        func fieldStamps(habit: String) throws -> [SyncHabitField: SyncStamp] { try repository.fieldStamps(habit) }
        func holds(_ kind: SyncKind, _ key: String) throws -> Bool { try repository.holds(kind, key, batch) }
        func topRevision(_ kind: SyncKind, of parent: String) throws -> Int64 { try repository.topRevision(kind, of: parent) }
    }

    /// Carries out `SyncMerger`'s decision for one change.
    private func apply(_ change: SyncChange, index: Int, as replica: SyncReplica, _ batch: Batch) throws -> SyncOutcome {
        let decision = try SyncMerger.decide(change, in: BatchState(repository: self, batch: batch), as: replica)
        switch decision {
        case .keep, .drop:
            break
        case .delete:
            try write(as: change.stamp, batch)
            batch.parents.remove(change.kind.rawValue + change.key)
            if try delete(change.kind, change.key) == 0 { try bury(change) }
        case .insert(let entity):
            try write(as: change.stamp, batch)
            try insert(entity)
            if change.kind == .habit { try setFieldStamps(change.key, change.fieldStamps, held: [:]) }
            if Self.revisionKind(of: change.kind) != nil {
                batch.parents.insert(change.kind.rawValue + change.key)
                batch.created.append((index, change.kind, change.key))
            }
        case .update(let entity):
            try write(as: change.stamp, batch)
            try update(entity)
        case .joinScript(let script, let own):
            try write(as: own ? nil : change.stamp, batch)
            try update(.script(script))
        case .mergeHabit(let habit, let stamps, let own, _):
            // The update's trigger stamps what it changed as the writer's; the stamps each field
            // won with are put back after it.
            try write(as: own ? nil : change.stamp, batch)
            try update(.habit(habit))
            try setFieldStamps(change.key, stamps, held: [:])
        case .restampHabit(let habit, let stamps):
            try write(as: change.stamp, batch)
            let held = try fieldStamps(change.key)
            try update(.habit(habit))
            try setFieldStamps(change.key, stamps, held: held)
        case .renumber(let revision):
            try write(as: nil, batch)
            try insert(revision)
        case .replaceRevision(let revision, let moved):
            // The device's own rules from this number on make room, the latest first.
            let number = revision.numbered?.number ?? 0
            try write(as: nil, batch)
            for shifted in moved.reversed() {
                guard let later = shifted.numbered, later.number - 1 > number else { continue }
                try delete(change.kind, SyncRules.revisionKey(habit: later.parent, number: later.number - 1))
            }
            try write(as: change.stamp, batch)
            try delete(change.kind, change.key)
            try insert(revision)
            try write(as: nil, batch)
            for shifted in moved { try insert(shifted) }
        }
        return decision.outcome
    }

    func topRevision(_ kind: SyncKind, of parent: String) throws -> Int64 {
        let table = SQLSyncTable.of(kind)
        return try executor.integer(sql("SELECT max(number) AS top FROM \(table.name) WHERE \(ownerColumn) = $1 AND \(table.parentColumn) = $2::uuid"),
                                    [owner, .text(parent)], column: "top") ?? 0
    }

    public func settleNames() throws -> [SyncDecided.Renamed] {
        var renamed: [SyncDecided.Renamed] = []
        for (table, touched) in [("habits", ", updated_at = $5"), ("habit_groups", "")] {
            // Most syncs leave no two with one name: the store says so before anything is read.
            let clashing = try executor.rows(sql("SELECT name_key FROM \(table) WHERE \(ownerColumn) = $1 GROUP BY name_key HAVING count(*) > 1"), [owner]) {
                $0.text("name_key")
            }
            guard !clashing.isEmpty else { continue }
            let held = try executor.rows(sql("SELECT upper(CAST(id AS TEXT)) AS id, name, created_at FROM \(table) WHERE \(ownerColumn) = $1"), [owner]) {
                SyncMerger.NamedHabit(id: $0.text("id"), name: $0.text("name"), created: $0.real("created_at"))
            }
            let names = Dictionary(uniqueKeysWithValues: held.map { ($0.id, $0.name) })
            for (id, name) in SyncMerger.settledNames(held) {
                var values: [SQLValue] = [owner, .text(id), .text(name), .text(Habit.nameKey(for: name))]
                if !touched.isEmpty { values.append(.real(instant().timeIntervalSince1970)) }
                try executor.run(sql("UPDATE \(table) SET name = $3, name_key = $4\(touched) WHERE \(ownerColumn) = $1 AND id = $2::uuid"), values)
                renamed.append(SyncDecided.Renamed(from: names[id] ?? "", to: name))
            }
        }
        return renamed
    }
}
