import Foundation
import StackDay

/// One owner's sync change log and merge in either store: `sync_entities` (kept by the schema's
/// triggers), `sync_owners`, `sync_writer` and `sync_peers`. Entities are read and written
/// through their tables' codecs (`SQLSyncTable`).
public final class SQLSyncRepository: SyncRepository {
    private let executor: any SQLExecutor
    private let owner: SQLValue
    private let dialect: SQLDialect

    /// The clock the schema's stamps are handed, when the store was given one.
    private let clock: (any Clock)?
    /// What the repository's own times are read from: `clock`, else the machine's, injected once.
    private let times: any Clock

    /// `clock`, when given, is the one the store's writes are stamped by (`sync_clock`); without
    /// one, the machine's.
    public init(executor: any SQLExecutor, owner: String, clock: (any Clock)? = nil) {
        self.executor = executor
        self.owner = .text(owner)
        self.clock = clock
        times = clock ?? SystemClock()
        dialect = executor.dialect
    }

    /// Hands the store's clock, if it has one, to the schema's stamps for the write transaction
    /// that has just begun; `finishWrite` takes it back before the transaction commits.
    public func startWrite() throws {
        guard clock != nil else { return }
        try executor.run(sql("DELETE FROM sync_clock"), [])
        try executor.run(sql("INSERT INTO sync_clock (hlc) VALUES ($1)"), [.integer(now())])
    }

    public func finishWrite() throws {
        guard clock != nil else { return }
        try executor.run(sql("DELETE FROM sync_clock"), [])
    }

    /// Each statement in the executor's dialect, rewritten once (a first sync runs a few of them
    /// a million times).
    private var statements: [String: String] = [:]
    /// Multi-row inserts by kind and row count (`insertStatement`).
    private var inserts: [String: String] = [:]

    private func sql(_ text: String) -> String {
        if let known = statements[text] { return known }
        let statement = dialect.statement(text)
        statements[text] = statement
        return statement
    }
    private var ownerColumn: String { dialect.owner }

    public func deletedKeys(_ kind: SyncKind) throws -> Set<String> {
        Set(try executor.rows(sql("SELECT key FROM sync_entities WHERE \(ownerColumn) = $1 AND kind = $2 AND deleted = 1"),
                              [owner, .text(kind.rawValue)]) { $0.text("key") })
    }

    public func forget() throws {
        for table in ["sync_entities", "sync_fields", "sync_peers", "sync_devices", "sync_owners", "sync_credentials", "sync_received", "sync_retired", "sync_marks"] {
            try executor.run(sql("DELETE FROM \(table) WHERE \(ownerColumn) = $1"), [owner])
        }
    }

    // MARK: The log

    public func start(makeDevice: () -> String) throws -> String {
        if let device = try executor.rows(sql("SELECT device FROM sync_owners WHERE \(ownerColumn) = $1"), [owner], { $0.text("device") }).first {
            return device
        }
        let device = makeDevice()
        let hlc = now()
        try executor.run(sql("INSERT INTO sync_owners (\(ownerColumn), device, seq, hlc) VALUES ($1, $2, 0, $3)"), [owner, .text(device), .integer(hlc)])
        // Everything already held enters the log once, parents first, as this store's own writes.
        for kind in SyncKind.allCases {
            let table = SQLSyncTable.of(kind)
            let (name, key) = (table.name, table.keyText)
            let base = try position()
            try executor.run(sql("""
                INSERT INTO sync_entities (\(ownerColumn), kind, key, seq, hlc, device, deleted, own)
                SELECT \(ownerColumn), '\(kind.rawValue)', \(key), $2::bigint + row_number() OVER (ORDER BY \(key)), $3::bigint, $4, 0,
                    $2::bigint + row_number() OVER (ORDER BY \(key))
                FROM \(name) WHERE \(ownerColumn) = $1
                """), [owner, .integer(base), .integer(hlc), .text(device)])
            try executor.run(sql("""
                UPDATE sync_owners SET seq = coalesce((SELECT max(seq) FROM sync_entities WHERE \(ownerColumn) = $1), 0) WHERE \(ownerColumn) = $1
                """), [owner])
        }
        try executor.run(sql("UPDATE sync_owners SET own = seq WHERE \(ownerColumn) = $1"), [owner])
        return device
    }

    /// A hybrid logical time for now, by the store's clock.
    private func now() -> Int64 { SyncStamp.time(at: instant()) }

    private func instant() -> Date { times.now }

    public func pending(after position: Int64, device: String, scope: SyncScope) throws -> Int {
        Int(try executor.integer(sql("""
            SELECT count(*) AS pending FROM sync_entities WHERE \(ownerColumn) = $1 AND seq > $2 AND \(Self.condition(scope, parameter: 3))
            """), [owner, .integer(position), .text(device)], column: "pending") ?? 0)
    }

    /// The condition on an entry's device for `scope`, the device the parameter `$N`.
    private static func condition(_ scope: SyncScope, parameter: Int) -> String {
        switch scope {
        case .own: "device = $\(parameter)"
        case .others: "device <> $\(parameter)"
        case .all: "$\(parameter) = $\(parameter)"
        }
    }

    public func ownWrites() throws -> Int64 {
        try executor.integer(sql("SELECT own FROM sync_owners WHERE \(ownerColumn) = $1"), [owner], column: "own") ?? 0
    }

    public func position() throws -> Int64 {
        try executor.integer(sql("SELECT seq FROM sync_owners WHERE \(ownerColumn) = $1"), [owner], column: "seq") ?? 0
    }

    /// The columns a `SyncLogEntry` is read from.
    private static let entryColumns = "kind, key, seq, hlc, device, deleted, own"

    private func entry(_ row: any SQLRow) -> SyncLogEntry? {
        guard let kind = SyncKind(rawValue: row.text("kind")) else { return nil }
        return SyncLogEntry(kind: kind, key: row.text("key"), seq: row.integer("seq"), stamp: SyncStamp(hlc: row.integer("hlc"), device: row.text("device")),
                     deleted: row.integer("deleted") != 0, own: row.isNull("own") ? nil : row.integer("own"))
    }

    private func entry(_ kind: SyncKind, _ key: String) throws -> SyncLogEntry? {
        try executor.rows(sql("""
            SELECT \(Self.entryColumns) FROM sync_entities WHERE \(ownerColumn) = $1 AND kind = $2 AND key = $3
            """), [owner, .text(kind.rawValue), .text(key)], entry).first ?? nil
    }

    /// An entity as the store holds it; nil when it holds none.
    private func entity(_ kind: SyncKind, _ key: String) throws -> SyncEntity? {
        let table = SQLSyncTable.of(kind)
        return try executor.rows(sql("SELECT \(table.columnList) FROM \(table.name) WHERE \(ownerColumn) = $1 AND \(table.keyCondition)"),
                                 [owner] + table.keyValues(key), table.entity).first
    }

    /// Whether the store holds an entity: its key looked up alone, no column read (a page of
    /// records asks it of their habit once a slice).
    private func holds(_ kind: SyncKind, _ key: String) throws -> Bool {
        let table = SQLSyncTable.of(kind)
        return try !executor.rows(sql("SELECT 1 AS held FROM \(table.name) WHERE \(ownerColumn) = $1 AND \(table.keyCondition)"),
                                  [owner] + table.keyValues(key)) { $0.integer("held") }.isEmpty
    }

    /// Keys fifty at a time, for `lookups`.
    static func chunks(_ keys: [String]) -> [ArraySlice<String>] {
        stride(from: 0, to: keys.count, by: 50).map { keys[$0..<min(keys.count, $0 + 50)] }
    }

    /// `count` keys looked up in one statement (`select` ends in `key = `), parameters from
    /// `$first`: an `IN` list where the dialect searches one by the key's index, else one
    /// primary-key equality each, joined by `UNION ALL` (see `SQLDialect.searchesKeyLists`).
    func lookups(_ select: String, count: Int, first: Int, value: SyncValue) -> String {
        let parameters = (0..<count).map { SQLSyncTable.parameter(first + $0, value) }
        guard !dialect.searchesKeyLists else { return String(select.dropLast(2)) + "IN (" + parameters.joined(separator: ", ") + ")" }
        return parameters.map { select + $0 }.joined(separator: "\nUNION ALL ")
    }

    /// Many entities of one kind, by key, fifty keys to a query (a revision's key is two
    /// columns: those are read one at a time).
    private func entities(_ kind: SyncKind, keys: [String]) throws -> [String: SyncEntity] {
        var found: [String: SyncEntity] = [:]
        guard !kind.isRevision else {
            for key in keys { found[key] = try entity(kind, key) }
            return found
        }
        let table = SQLSyncTable.of(kind)
        let select = "SELECT \(table.columnList) FROM \(table.name) WHERE \(ownerColumn) = $1 AND \(table.keyColumns[0]) = "
        for chunk in Self.chunks(keys) {
            let rows = try executor.rows(sql(lookups(select, count: chunk.count, first: 2, value: table.columns[0].value)), [owner] + chunk.map(SQLValue.text)) { row in
                (table.key(row), table.entity(row))
            }
            for (key, entity) in rows { found[key] = entity }
        }
        return found
    }

    /// The entry as a change (its entity from `held` when read there), with the number of the
    /// write that made it when device `own` made it here; nil for a live entry whose entity is not
    /// there (never sent as a deletion).
    private func change(_ entry: SyncLogEntry, held: [String: SyncEntity] = [:], own: String? = nil) throws -> SyncChange? {
        let seq = entry.stamp.device == own ? entry.own : nil
        if entry.deleted { return .deletion(entry.kind, key: entry.key, stamp: entry.stamp, seq: seq) }
        guard let entity = try held[entry.kind.rawValue + entry.key] ?? entity(entry.kind, entry.key) else { return nil }
        let stamps = entry.kind == .habit ? try fieldStamps(entry.key) : [:]
        return SyncChange(entity, stamp: entry.stamp, fieldStamps: stamps, seq: seq)
    }

    /// The stamps of a habit's fields changed since it was made.
    private func fieldStamps(_ habit: String) throws -> [SyncHabitField: SyncStamp] {
        var stamps: [SyncHabitField: SyncStamp] = [:]
        for (column, stamp) in try executor.rows(sql("SELECT field, hlc, device FROM sync_fields WHERE \(ownerColumn) = $1 AND habit = $2"),
                                                 [owner, .text(habit)], { ($0.text("field"), SyncStamp(hlc: $0.integer("hlc"), device: $0.text("device"))) }) {
            if let field = SQLSyncTable.habitFields[column] { stamps[field] = stamp }
        }
        return stamps
    }

    /// Keeps `stamps` as the habit's field stamps, where they differ from `held`.
    private func setFieldStamps(_ habit: String, _ stamps: [SyncHabitField: SyncStamp], held: [SyncHabitField: SyncStamp]) throws {
        for (field, stamp) in stamps.sorted(by: { $0.key < $1.key }) where held[field] != stamp {
            try executor.run(sql("""
                INSERT INTO sync_fields (\(ownerColumn), habit, field, hlc, device) VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (\(ownerColumn), habit, field) DO UPDATE SET hlc = excluded.hlc, device = excluded.device
                """), [owner, .text(habit), .text(SQLSyncTable.habitColumns[field] ?? field.rawValue), .integer(stamp.hlc), .text(stamp.device)])
        }
    }

    public func changes(after position: Int64, device: String, scope: SyncScope, limit: Int) throws -> SyncPage {
        // A push asks for nothing back: the log is not read (a first push would scan all it sent).
        guard limit > 0 else { return SyncPage(changes: [], entries: 0, position: position, more: false) }
        // The end is read first: every entry up to it is committed (see `PostgresSyncTriggers`).
        let end = try self.position()
        let entries = try executor.rows(sql("""
            SELECT \(Self.entryColumns) FROM sync_entities
            WHERE \(ownerColumn) = $1 AND seq > $2 AND seq <= $3 AND \(Self.condition(scope, parameter: 4)) ORDER BY seq LIMIT $5
            """), [owner, .integer(position), .integer(end), .text(device), .integer(Int64(limit) + 1)], entry).compactMap { $0 }
        var more = entries.count > limit
        var taken = entries.prefix(limit)
        var changes: [SyncChange] = []
        var sent = Set<String>()
        var bytes = 0
        // The page's entities, read a kind at a time rather than one by one.
        var held: [String: SyncEntity] = [:]
        for kind in SyncKind.allCases {
            let keys = taken.filter { $0.kind == kind && !$0.deleted }.map(\.key)
            for (key, entity) in try entities(kind, keys: keys) { held[kind.rawValue + key] = entity }
        }
        var parentEntries: [String: SyncLogEntry?] = [:]
        func parentEntry(_ kind: SyncKind, _ key: String) throws -> SyncLogEntry? {
            if let known = parentEntries[kind.rawValue + key] { return known }
            let found = try self.entry(kind, key)
            parentEntries[kind.rawValue + key] = found
            return found
        }
        for (index, entry) in taken.enumerated() {
            // An entry the page already sends (a revision that went along with its habit) adds nothing.
            if sent.contains(entry.kind.rawValue + entry.key) { continue }
            // A page stays well inside a server's request limit (1 MiB by default), however large its scripts.
            if bytes > Self.pageBytes {
                taken = taken.prefix(index)
                more = true
                break
            }
            guard let change = try change(entry, held: held, own: scope == .others ? nil : device) else { continue }
            // What this entry sends: a parent logged after it (a habit renamed since, a script put
            // back) first, then the entry, then, for a habit, its revisions logged after it, so that
            // no page leaves a habit without rules.
            var adding: [SyncChange] = []
            var names = Set<String>()
            func add(_ item: SyncChange) {
                let name = item.kind.rawValue + item.key
                if !sent.contains(name), names.insert(name).inserted { adding.append(item) }
            }
            var parents = try parents(of: change).compactMap { try parentEntry($0, $1) }
            if let revision = change.entity?.numbered {
                parents += try earlierRevisions(change.kind, of: revision.parent, below: revision.number, after: entry.seq)
            }
            for parent in parents where parent.seq > entry.seq && !parent.deleted {
                if let parentChange = try self.change(parent, own: scope == .others ? nil : device) { add(parentChange) }
            }
            add(change)
            if let revisions = Self.revisionKind(of: change.kind), !change.deleted {
                // An answer also sends the revisions logged before it under the receiver's own id: a
                // copy of the receiver may have made them (and the habit) under that id, which the
                // receiver never pulls, before the copy took an id of its own.
                let along = try earlierRevisions(revisions, of: change.key, below: .max, after: scope == .others ? 0 : entry.seq)
                    .filter { $0.seq > entry.seq || $0.stamp.device == device }
                for revision in along where !revision.deleted {
                    // Revision 1 always; the rest while the page has room (they are entries of their own later).
                    guard changes.count + adding.count < limit || adding.count < 2 else { break }
                    if let along = try self.change(revision, own: scope == .others ? nil : device) { add(along) }
                }
            }
            // At most `limit` changes a page, as a server takes them.
            if !changes.isEmpty, changes.count + adding.count > limit {
                taken = taken.prefix(index)
                more = true
                break
            }
            changes += adding
            sent.formUnion(names)
            bytes += adding.reduce(0) { $0 + Self.size($1) }
        }
        let reached = more ? taken.last?.seq ?? position : max(position, end)
        return SyncPage(changes: changes, entries: taken.count, position: reached, more: more)
    }

    /// The kind of a habit's or group's revisions.
    private static func revisionKind(of kind: SyncKind) -> SyncKind? {
        switch kind {
        case .habit: .revision
        case .group: .groupRevision
        default: nil
        }
    }

    /// A habit's or group's revisions (of `kind`) numbered below `number` and logged after `seq`:
    /// a receiver holds a parent's revisions as 1, 2, 3, … with no gap, so they go before it.
    private func earlierRevisions(_ kind: SyncKind, of parent: String, below number: Int64, after seq: Int64) throws -> [SyncLogEntry] {
        // The key's range, not a LIKE, so that the search is in the key's index ("0" follows "/").
        try executor.rows(sql("""
            SELECT \(Self.entryColumns) FROM sync_entities WHERE \(ownerColumn) = $1 AND kind = $4 AND key >= $2 AND key < $3
            """), [owner, .text(parent + "/"), .text(parent + "0"), .text(kind.rawValue)], entry).compactMap { entry in
            entry.flatMap { entry in SyncRules.revision(entry.key).map { (entry: entry, number: $0.number) } }
        }
        .filter { $0.entry.seq > seq && $0.number < number }
        .sorted { $0.number < $1.number }
        .map(\.entry)
    }

    /// About how many bytes a page may take before it ends early.
    static let pageBytes = 512 * 1024

    /// About how many bytes a change takes in JSON: what can be long (a script's text, a habit's
    /// question and description, a record's note) counted, the rest a few hundred bytes.
    static func size(_ change: SyncChange) -> Int {
        switch change.entity {
        case .script(let script)?: 400 + script.source.utf8.count
        case .habit(let habit)?: 600 + (habit.question?.utf8.count ?? 0) + (habit.description?.utf8.count ?? 0)
        case .record(let record)?: 400 + (record.note?.utf8.count ?? 0)
        case .revision?: 1000
        case .groupRevision(let revision)?: 600 + 40 * revision.members.count
        case .skip?, .group?, nil: 400
        }
    }

    /// What a change's entity needs held before it: its habit, a revision's scripts.
    private func parents(of change: SyncChange) -> [(SyncKind, String)] {
        guard let entity = change.entity, let parent = entity.parent else { return [] }
        return [(parent.kind, parent.key)] + (entity.numbered?.pins ?? []).map { (.script, $0) }
    }

    // MARK: Merging

    /// Writes made until `clearWriter` are stamped as `stamp`'s, not as this replica's.
    private func setWriter(_ stamp: SyncStamp) throws {
        try clearWriter()
        try executor.run(sql("INSERT INTO sync_writer (device, hlc) VALUES ($1, $2)"), [.text(stamp.device), .integer(stamp.hlc)])
    }

    private func clearWriter() throws {
        try executor.run(sql("DELETE FROM sync_writer"), [])
    }

    /// The name a habit or group is looked up by (`Habit.nameKey`), kept beside its name.
    private static func nameKey(of entity: SyncEntity) -> String? {
        switch entity {
        case .habit(let habit): Habit.nameKey(for: habit.name)
        case .group(let group): Habit.nameKey(for: group.name)
        default: nil
        }
    }

    private func insert(_ entity: SyncEntity) throws {
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

    private func update(_ entity: SyncEntity) throws {
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
    private func delete(_ kind: SyncKind, _ key: String) throws -> Int {
        let table = SQLSyncTable.of(kind)
        return try executor.run(sql("DELETE FROM \(table.name) WHERE \(ownerColumn) = $1 AND \(table.keyCondition)"), [owner] + table.keyValues(key))
    }

    /// A tombstone for an entity this replica never held, so that no copy of it is taken later.
    private func bury(_ change: SyncChange) throws {
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
    private func entries(_ kind: SyncKind, keys: [String]) throws -> [String: SyncLogEntry] {
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
                if try !joinsInsert(change, batch) { try flush(batch) }
                if try joinsInsert(change, batch) {
                    batch.pending.append((index, change))
                    outcomes[index] = .applied
                } else {
                    outcomes[index] = try apply(change, index: index, as: replica, batch)
                }
                batch.written.insert(change.kind.rawValue + change.key)
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

    /// Whether a change is a record or skip this store has never held, of a habit it holds, that
    /// can go in the batch's pending insert (the same kind and stamp, its key not already there).
    private func joinsInsert(_ change: SyncChange, _ batch: Batch) throws -> Bool {
        guard change.kind == .completion || change.kind == .skip, !change.deleted else { return false }
        if let first = batch.pending.first?.change, first.kind != change.kind || first.stamp != change.stamp { return false }
        let name = change.kind.rawValue + change.key
        guard !batch.written.contains(name), case .some(nil) = batch.entries[name] else { return false }
        guard let habit = change.habit else { return false }
        return try holds(.habit, habit, batch)
    }

    /// Inserts the pending records or skips, a hundred rows to a statement, under their stamp.
    private func flush(_ batch: Batch) throws {
        guard let first = batch.pending.first?.change else { return }
        try write(as: first.stamp, batch)
        let table = SQLSyncTable.of(first.kind)
        for start in stride(from: 0, to: batch.pending.count, by: 100) {
            let chunk = batch.pending[start..<min(batch.pending.count, start + 100)]
            var values = [owner]
            values.reserveCapacity(1 + chunk.count * table.columns.count)
            for (_, change) in chunk {
                if let entity = change.entity { values += table.bind(entity) }
            }
            try executor.run(insertStatement(first.kind, rows: chunk.count), values)
        }
        batch.pending = []
    }

    /// The statement inserting `rows` rows of a kind at once, in the executor's dialect: written
    /// once for each kind and count (a first sync inserts its records ten at a time, thousands of times).
    private func insertStatement(_ kind: SyncKind, rows count: Int) -> String {
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

    private func topRevision(_ kind: SyncKind, of parent: String) throws -> Int64 {
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

    public func keepDecided(_ decided: SyncDecided) throws {
        try executor.run(sql("UPDATE sync_owners SET decided = $2 WHERE \(ownerColumn) = $1"), [owner, .text(decided.json.jsonText)])
    }

    public func lastDecided() throws -> SyncDecided? {
        let kept = try executor.rows(sql("SELECT decided FROM sync_owners WHERE \(ownerColumn) = $1 AND decided IS NOT NULL"), [owner]) { $0.text("decided") }
        return kept.first.flatMap { try? JSONValue(parsing: $0) }.flatMap(SyncDecided.init(json:))
    }


    public func peer(_ server: String) throws -> SyncPeer {
        try executor.rows(sql("SELECT pushed_through, position, epoch, previous, mark FROM sync_peers WHERE \(ownerColumn) = $1 AND server = $2"),
                          [owner, .text(server)]) {
            SyncPeer(pushedThrough: $0.integer("pushed_through"), position: $0.integer("position"), epoch: $0.optionalText("epoch"),
                     previous: $0.optionalText("previous"), mark: $0.optionalText("mark"))
        }.first ?? SyncPeer()
    }

    public func setPeer(_ server: String, _ peer: SyncPeer) throws {
        try executor.run(sql("""
            INSERT INTO sync_peers (\(ownerColumn), server, pushed_through, position, epoch, previous, mark) VALUES ($1, $2, $3, $4, $5, $6, $7)
            ON CONFLICT (\(ownerColumn), server) DO UPDATE SET pushed_through = excluded.pushed_through, position = excluded.position,
                epoch = excluded.epoch, previous = excluded.previous, mark = excluded.mark
            """), [owner, .text(server), .integer(peer.pushedThrough), .integer(peer.position), peer.epoch.map(SQLValue.text) ?? .null,
                   peer.previous.map(SQLValue.text) ?? .null, peer.mark.map(SQLValue.text) ?? .null])
    }

    public func savedCredential(server: String) throws -> SyncCredential? {
        try executor.rows(sql("SELECT token, authorities FROM sync_credentials WHERE \(ownerColumn) = $1 AND server = $2"), [owner, .text(server)]) { row in
            SyncCredential(token: row.text("token"), authorities: row.optionalText("authorities"))
        }.first
    }

    public func saveCredential(_ credential: SyncCredential, server: String) throws {
        try executor.run(sql("""
            INSERT INTO sync_credentials (\(ownerColumn), server, token, authorities) VALUES ($1, $2, $3, $4)
            ON CONFLICT (\(ownerColumn), server) DO UPDATE SET token = excluded.token, authorities = excluded.authorities
            """), [owner, .text(server), .text(credential.token), .optional(credential.authorities)])
    }

    public func savedServers() throws -> [String] {
        try executor.rows(sql("SELECT server FROM sync_credentials WHERE \(ownerColumn) = $1 ORDER BY server"), [owner]) { $0.text("server") }
    }

    public func identity(store: String?) throws -> SyncServerIdentity {
        let kept = try executor.rows(sql("SELECT id, epoch, store FROM sync_server"), []) { ($0.text("id"), $0.text("epoch"), $0.text("store")) }.first
        guard let (id, epoch, known) = kept else {
            let made = SyncServerIdentity(id: UUID().uuidString.lowercased(), epoch: UUID().uuidString.lowercased())
            try executor.run(sql("INSERT INTO sync_server (id, epoch, store) VALUES ($1, $2, $3)"), [.text(made.id), .text(made.epoch), .text(store ?? "")])
            return made
        }
        guard let store, store != known else { return SyncServerIdentity(id: id, epoch: epoch) }
        // Not the store the epoch was made in: restored, copied or moved.
        try executor.run(sql("UPDATE sync_server SET store = $1"), [.text(store)])
        return try newEpoch()
    }

    public func mark(at position: Int64, make: Bool) throws -> String? {
        let select = sql("SELECT mark FROM sync_marks WHERE \(ownerColumn) = $1 AND seq = $2")
        if let kept = try executor.rows(select, [owner, .integer(position)], { $0.text("mark") }).first { return kept }
        guard make else { return nil }
        let made = UUID().uuidString.lowercased()
        try executor.run(sql("INSERT INTO sync_marks (\(ownerColumn), seq, mark) VALUES ($1, $2, $3)"), [owner, .integer(position), .text(made)])
        return made
    }

    public func newEpoch() throws -> SyncServerIdentity {
        let epoch = UUID().uuidString.lowercased()
        try executor.run(sql("UPDATE sync_server SET epoch = $1"), [.text(epoch)])
        let id = try executor.rows(sql("SELECT id FROM sync_server"), []) { $0.text("id") }.first ?? ""
        return SyncServerIdentity(id: id, epoch: epoch)
    }

    public func received(from device: String, at seqs: [Int64]) throws -> [Int64: Int64] {
        var found: [Int64: Int64] = [:]
        let select = "SELECT seq, fingerprint FROM sync_received WHERE \(ownerColumn) = $1 AND device = $2 AND seq = "
        for start in stride(from: 0, to: seqs.count, by: 50) {
            let chunk = seqs[start..<min(seqs.count, start + 50)]
            let rows = try executor.rows(sql(lookups(select, count: chunk.count, first: 3, value: .count)), [owner, .text(device)] + chunk.map(SQLValue.integer)) {
                ($0.integer("seq"), $0.integer("fingerprint"))
            }
            for (seq, fingerprint) in rows { found[seq] = fingerprint }
        }
        return found
    }

    public func retire(device: String, for successor: String) throws -> Int {
        // Once for each store that leaves the id: a second copy leaving it later brings what it
        // pushed under it (and the first copy's since) to the ones that keep it.
        guard try executor.rows(sql("SELECT device FROM sync_retired WHERE \(ownerColumn) = $1 AND device = $2 AND successor = $3"),
                                [owner, .text(device), .text(successor)], { $0.text("device") }).isEmpty else { return 0 }
        try executor.run(sql("INSERT INTO sync_retired (\(ownerColumn), device, successor) VALUES ($1, $2, $3)"), [owner, .text(device), .text(successor)])
        // What was taken under the id mixed two stores' writes: the one that keeps it starts afresh.
        try executor.run(sql("DELETE FROM sync_received WHERE \(ownerColumn) = $1 AND device = $2"), [owner, .text(device)])
        let end = try position()
        guard let first = try executor.integer(sql("SELECT min(seq) AS first FROM sync_entities WHERE \(ownerColumn) = $1 AND device = $2"),
                                               [owner, .text(device)], column: "first") else { return 0 }
        // Past the log's end, in the order they were logged: every other device, the store that
        // keeps the id included, pulls them.
        let moved = try executor.run(sql("""
            UPDATE sync_entities SET seq = seq + $3, device = $4, own = NULL WHERE \(ownerColumn) = $1 AND device = $2
            """), [owner, .text(device), .integer(end + 1 - first), .text(SyncRules.serverDevice)])
        // A habit or group moved past the end goes with its revisions: those logged before it (by
        // other devices) follow it, so that a store that never held it pulls its rules with it.
        var next = try executor.integer(sql("SELECT max(seq) AS last FROM sync_entities WHERE \(ownerColumn) = $1"), [owner], column: "last") ?? end
        for parent in [SyncKind.habit, .group] {
            guard let revisions = Self.revisionKind(of: parent) else { continue }
            let keys = try executor.rows(sql("SELECT key FROM sync_entities WHERE \(ownerColumn) = $1 AND kind = $2 AND seq > $3 AND deleted = 0"),
                                         [owner, .text(parent.rawValue), .integer(end)]) { $0.text("key") }
            for key in keys {
                for entry in try earlierRevisions(revisions, of: key, below: .max, after: 0) where entry.seq <= end {
                    next += 1
                    try executor.run(sql("UPDATE sync_entities SET seq = $4 WHERE \(ownerColumn) = $1 AND kind = $2 AND key = $3"),
                                     [owner, .text(revisions.rawValue), .text(entry.key), .integer(next)])
                }
            }
        }
        try executor.run(sql("""
            UPDATE sync_owners SET seq = coalesce((SELECT max(seq) FROM sync_entities WHERE \(ownerColumn) = $1), seq) WHERE \(ownerColumn) = $1
            """), [owner])
        return moved
    }

    public func lastReceived(from device: String) throws -> Int64? {
        try executor.integer(sql("SELECT max(seq) AS last FROM sync_received WHERE \(ownerColumn) = $1 AND device = $2"), [owner, .text(device)], column: "last")
    }

    public func receive(_ fingerprints: [Int64: Int64], from device: String) throws {
        let sorted = fingerprints.sorted { $0.key < $1.key }
        for start in stride(from: 0, to: sorted.count, by: 100) {
            let chunk = sorted[start..<min(sorted.count, start + 100)]
            var values: [SQLValue] = [owner, .text(device)]
            var rows: [String] = []
            for (seq, fingerprint) in chunk {
                rows.append("($1, $2, $\(values.count + 1), $\(values.count + 2))")
                values += [.integer(seq), .integer(fingerprint)]
            }
            try executor.run(sql("""
                INSERT INTO sync_received (\(ownerColumn), device, seq, fingerprint) VALUES \(rows.joined(separator: ", "))
                ON CONFLICT (\(ownerColumn), device, seq) DO UPDATE SET fingerprint = excluded.fingerprint
                """), values)
        }
    }

    public func currentTime() -> Int64 { now() }

    public func hybridTime() throws -> Int64 {
        try executor.integer(sql("SELECT hlc FROM sync_owners WHERE \(ownerColumn) = $1"), [owner], column: "hlc") ?? 0
    }

    public func rebaseClock(to hlc: Int64, device: String, after position: Int64) throws -> Int {
        let ahead = try executor.rows(sql("""
            SELECT kind, key FROM sync_entities WHERE \(ownerColumn) = $1 AND device = $2 AND seq > $3 AND hlc > $4 ORDER BY seq
            """), [owner, .text(device), .integer(position), .integer(hlc)]) { ($0.text("kind"), $0.text("key")) }
        var next = hlc
        for (kind, key) in ahead {
            next += 1
            try executor.run(sql("UPDATE sync_entities SET hlc = $4 WHERE \(ownerColumn) = $1 AND kind = $2 AND key = $3"),
                             [owner, .text(kind), .text(key), .integer(next)])
            // A field stamp that far ahead is one of this store's own writes, whatever id it was made
            // under (a store that took a new id keeps the stamps it made under the old one).
            if kind == SyncKind.habit.rawValue {
                try executor.run(sql("UPDATE sync_fields SET hlc = $3 WHERE \(ownerColumn) = $1 AND habit = $2 AND hlc > $4"),
                                 [owner, .text(key), .integer(next), .integer(hlc)])
            }
        }
        try executor.run(sql("UPDATE sync_fields SET hlc = $2 WHERE \(ownerColumn) = $1 AND hlc > $2"), [owner, .integer(next)])
        try executor.run(sql("UPDATE sync_owners SET hlc = $2 WHERE \(ownerColumn) = $1"), [owner, .integer(next)])
        return ahead.count
    }

    public func moveDevice(to device: String) throws -> String {
        let old = try start { device }
        guard old != device else { return old }
        try executor.run(sql("UPDATE sync_owners SET device = $2 WHERE \(ownerColumn) = $1"), [owner, .text(device)])
        try executor.run(sql("UPDATE sync_entities SET device = $3 WHERE \(ownerColumn) = $1 AND device = $2"), [owner, .text(old), .text(device)])
        // Everything goes to every server again under the new id, and everything is pulled again:
        // what a copy under the old id pushed was taken for this store's own and never pulled.
        try executor.run(sql("UPDATE sync_peers SET pushed_through = 0, position = 0, mark = NULL, previous = $2 WHERE \(ownerColumn) = $1"), [owner, .text(old)])
        return old
    }
}
