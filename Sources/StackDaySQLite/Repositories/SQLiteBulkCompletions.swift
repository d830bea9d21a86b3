import Foundation
import StackDay
import StackDaySQL

/// SQLite's import path for completions: one prepared statement, each row bound from a stack
/// buffer (no String per id or day), so a million-row import allocates nothing per row.
final class SQLiteBulkCompletions: SQLBulkCompletions {
    private let database: Database
    private let owner: SQLValue
    private let ownerBytes: [UInt8]
    private static let sql = """
        INSERT INTO completions (owner, id, habit_id, completed_on, recorded_at, amount_thousandths, note) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
        ON CONFLICT (owner, id) DO NOTHING
        """

    init(database: Database, owner: String) {
        self.database = database
        self.owner = .text(owner)
        ownerBytes = Array(owner.utf8)
    }

    private func insertIfAbsent(_ completion: Completion) throws -> Bool {
        let statement = try database.statement(Self.sql)
        statement.reset()
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 82) { buffer in
            UUIDText.write(completion.id, into: UnsafeMutableBufferPointer(rebasing: buffer[0..<36]))
            UUIDText.write(completion.habitID, into: UnsafeMutableBufferPointer(rebasing: buffer[36..<72]))
            completion.completedOn.writeISO(into: UnsafeMutableBufferPointer(rebasing: buffer[72..<82]))
            let bytes = UnsafeBufferPointer(buffer)
            try statement.bind(2, text: UnsafeBufferPointer(rebasing: bytes[0..<36]))
            try statement.bind(3, text: UnsafeBufferPointer(rebasing: bytes[36..<72]))
            try statement.bind(4, text: UnsafeBufferPointer(rebasing: bytes[72..<82]))
        }
        try ownerBytes.withUnsafeBufferPointer { try statement.bind(1, text: $0) }
        try statement.bind(5, real: completion.recordedAt.timeIntervalSince1970)
        try statement.bind(6, integer: completion.amountThousandths)
        if var note = completion.note {
            try note.withUTF8 { try statement.bind(7, text: $0) }
        } else {
            try statement.bindNull(7)
        }
        try statement.execute()
        return database.changes == 1
    }

    private static let bump = CacheTriggers.bump(owner: "?1", habit: "?2")
    private static let invalidation = CacheTriggers.invalidation(owner: "?1", habit: "?2", day: "?3")

    /// What the row triggers do for each row, done once for a habit: its generation moved on and
    /// its cached answers invalidated from `day`.
    private func touch(_ habit: SQLValue, from day: SQLValue) throws {
        try database.run(Self.bump, [owner, habit])
        try database.run(Self.invalidation, [owner, habit, day])
    }

    /// The insert triggers of completions and skips look at `cache_deferred` (migration 35) and
    /// `sync_deferred` (migration 36): with a row in each they do nothing, and what they would
    /// have done is done once after `body` (`afterRows`). The rows are taken out again whether
    /// `body` succeeds or not, so the transaction never goes on without the triggers.
    func insertingOnce(_ kind: SyncKind, touched: [(habit: String, day: String)], _ body: () throws -> [String]) throws {
        try database.run("INSERT INTO cache_deferred (deferred) VALUES (1)", [])
        try database.run("INSERT INTO sync_deferred (deferred) VALUES (1)", [])
        do {
            try afterRows(kind, touched: touched.map { (.text($0.habit), .text($0.day)) }, keys: try body())
        } catch {
            _ = try? database.run("DELETE FROM cache_deferred", [])
            _ = try? database.run("DELETE FROM sync_deferred", [])
            throw error
        }
        try database.run("DELETE FROM cache_deferred", [])
        try database.run("DELETE FROM sync_deferred", [])
    }

    /// What the insert triggers of `kind`'s table do for many new rows, done once: each habit of
    /// `touched` invalidated from its day, and, for an owner that syncs, `keys` (the rows inserted,
    /// in order) entered in the change log as the triggers would have entered them one by one.
    private func afterRows(_ kind: SyncKind, touched: [(habit: SQLValue, day: SQLValue)], keys: [String]) throws {
        precondition(kind == .skip || kind == .completion, "only records and skips are logged in batches")
        for (habit, day) in touched { try touch(habit, from: day) }
        guard !keys.isEmpty, try database.scalarInteger("SELECT 1 FROM sync_owners WHERE owner = ?", [owner]) != nil else { return }
        let statements = kind == .skip ? Self.batches.skip : Self.batches.completion
        try database.run(statements.entries, [owner, .text(JSONValue.array(keys.map(JSONValue.string)).jsonText)])
        try database.run(statements.advance, [owner, .integer(Int64(keys.count))])
    }

    private static let batches = (completion: SyncTriggers.batchStatements(kind: SyncKind.completion.rawValue),
                                  skip: SyncTriggers.batchStatements(kind: SyncKind.skip.rawValue))

    /// The insert triggers of completions as the schema has them (migrations 35 and 36).
    private static let insertTriggers = CacheTriggers.insertTrigger("completions", day: "completed_on", deferrable: true) + ";\n"
        + SyncTriggers.deferrableInsertTrigger(table: "completions", kind: "completion")

    /// An import's slice: the insert triggers are dropped for it and created again after it, in the
    /// caller's transaction, so that a row runs no trigger at all (a trigger that finds its table
    /// set aside still runs a program a row: S1's export and import took 3.1–3.8 s that way,
    /// against 2.5–3.1 s); `afterRows` does their work once. The drop is never committed on its
    /// own: on an error the triggers are created again before the transaction rolls back, and
    /// without them it cannot commit.
    func insertIfAbsent(_ completions: ArraySlice<Completion>) throws -> [Bool] {
        guard completions.count > 1 else { return try completions.map { try insertIfAbsent($0) } }
        var earliest: [UUID: LocalDay] = [:]
        for completion in completions { earliest[completion.habitID] = min(earliest[completion.habitID] ?? completion.completedOn, completion.completedOn) }
        try database.execute("DROP TRIGGER completions_cache_insert; DROP TRIGGER completions_sync_insert")
        let answers: [Bool]
        do {
            answers = try completions.map { try insertIfAbsent($0) }
            try afterRows(.completion, touched: earliest.map { (.id($0.key), .day($0.value)) },
                          keys: zip(completions, answers).filter(\.1).map { UUIDText.format($0.0.id) })
        } catch {
            try? database.execute(Self.insertTriggers)
            throw error
        }
        // A failure here fails the transaction: it never commits without the triggers.
        try database.execute(Self.insertTriggers)
        return answers
    }
}
