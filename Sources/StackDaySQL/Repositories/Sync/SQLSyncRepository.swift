import Foundation
import StackDay

/// One owner's sync change log and merge in either store: `sync_entities` (kept by the schema's
/// triggers), `sync_owners`, `sync_writer` and `sync_peers`. Entities are read and written
/// through their tables' codecs (`SQLSyncTable`).
public final class SQLSyncRepository: SyncRepository {
    let executor: any SQLExecutor
    let owner: SQLValue
    let dialect: SQLDialect

    /// The clock the schema's stamps are handed, when the store was given one.
    let clock: (any Clock)?
    /// The store's own way of writing many records at once, which keeps the cache once for them.
    let bulk: (any SQLBulkCompletions)?
    /// What the repository's own times are read from: `clock`, else the machine's, injected once.
    let times: any Clock

    /// `clock`, when given, is the one the store's writes are stamped by (`sync_clock`); without
    /// one, the machine's. `bulk`, when given, inserts the records and skips of a batch with the
    /// cache kept once for them.
    public init(executor: any SQLExecutor, owner: String, clock: (any Clock)? = nil, bulk: (any SQLBulkCompletions)? = nil) {
        self.executor = executor
        self.owner = .text(owner)
        self.clock = clock
        self.bulk = bulk
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
    var statements: [String: String] = [:]
    /// Multi-row inserts by kind and row count (`insertStatement`), and of fingerprints by row
    /// count (`receiveStatement`).
    var inserts: [String: String] = [:]

    func sql(_ text: String) -> String {
        if let known = statements[text] { return known }
        let statement = dialect.statement(text)
        statements[text] = statement
        return statement
    }
    var ownerColumn: String { dialect.owner }

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
    func now() -> Int64 { SyncStamp.time(at: instant()) }

    func instant() -> Date { times.now }

    public func pending(after position: Int64, device: String, scope: SyncScope) throws -> Int {
        Int(try executor.integer(sql("""
            SELECT count(*) AS pending FROM sync_entities WHERE \(ownerColumn) = $1 AND seq > $2 AND \(Self.condition(scope, parameter: 3))
            """), [owner, .integer(position), .text(device)], column: "pending") ?? 0)
    }

    /// The condition on an entry's device for `scope`, the device the parameter `$N`.
    static func condition(_ scope: SyncScope, parameter: Int) -> String {
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
    static let entryColumns = "kind, key, seq, hlc, device, deleted, own"

    func entry(_ row: any SQLRow) -> SyncLogEntry? {
        guard let kind = SyncKind(rawValue: row.text("kind")) else { return nil }
        return SyncLogEntry(kind: kind, key: row.text("key"), seq: row.integer("seq"), stamp: SyncStamp(hlc: row.integer("hlc"), device: row.text("device")),
                     deleted: row.integer("deleted") != 0, own: row.isNull("own") ? nil : row.integer("own"))
    }

    func entry(_ kind: SyncKind, _ key: String) throws -> SyncLogEntry? {
        try executor.rows(sql("""
            SELECT \(Self.entryColumns) FROM sync_entities WHERE \(ownerColumn) = $1 AND kind = $2 AND key = $3
            """), [owner, .text(kind.rawValue), .text(key)], entry).first ?? nil
    }

    /// An entity as the store holds it; nil when it holds none.
    func entity(_ kind: SyncKind, _ key: String) throws -> SyncEntity? {
        let table = SQLSyncTable.of(kind)
        return try executor.rows(sql("SELECT \(table.columnList) FROM \(table.name) WHERE \(ownerColumn) = $1 AND \(table.keyCondition)"),
                                 [owner] + table.keyValues(key), table.entity).first
    }

    /// Whether the store holds an entity: its key looked up alone, no column read (a page of
    /// records asks it of their habit once a slice).
    func holds(_ kind: SyncKind, _ key: String) throws -> Bool {
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
    func entities(_ kind: SyncKind, keys: [String]) throws -> [String: SyncEntity] {
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
    func change(_ entry: SyncLogEntry, held: [String: SyncEntity] = [:], own: String? = nil) throws -> SyncChange? {
        let seq = entry.stamp.device == own ? entry.own : nil
        if entry.deleted { return .deletion(entry.kind, key: entry.key, stamp: entry.stamp, seq: seq) }
        guard let entity = try held[entry.kind.rawValue + entry.key] ?? entity(entry.kind, entry.key) else { return nil }
        let stamps = entry.kind == .habit ? try fieldStamps(entry.key) : [:]
        return SyncChange(entity, stamp: entry.stamp, fieldStamps: stamps, seq: seq)
    }

    /// The stamps of a habit's fields changed since it was made.
    func fieldStamps(_ habit: String) throws -> [SyncHabitField: SyncStamp] {
        var stamps: [SyncHabitField: SyncStamp] = [:]
        for (column, stamp) in try executor.rows(sql("SELECT field, hlc, device FROM sync_fields WHERE \(ownerColumn) = $1 AND habit = $2"),
                                                 [owner, .text(habit)], { ($0.text("field"), SyncStamp(hlc: $0.integer("hlc"), device: $0.text("device"))) }) {
            if let field = SQLSyncTable.habitFields[column] { stamps[field] = stamp }
        }
        return stamps
    }

    /// Keeps `stamps` as the habit's field stamps, where they differ from `held`.
    func setFieldStamps(_ habit: String, _ stamps: [SyncHabitField: SyncStamp], held: [SyncHabitField: SyncStamp]) throws {
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
    static func revisionKind(of kind: SyncKind) -> SyncKind? {
        switch kind {
        case .habit: .revision
        case .group: .groupRevision
        default: nil
        }
    }

    /// A habit's or group's revisions (of `kind`) numbered below `number` and logged after `seq`:
    /// a receiver holds a parent's revisions as 1, 2, 3, … with no gap, so they go before it.
    func earlierRevisions(_ kind: SyncKind, of parent: String, below number: Int64, after seq: Int64) throws -> [SyncLogEntry] {
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
    func parents(of change: SyncChange) -> [(SyncKind, String)] {
        guard let entity = change.entity, let parent = entity.parent else { return [] }
        return [(parent.kind, parent.key)] + (entity.numbered?.pins ?? []).map { (.script, $0) }
    }
}
