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

    private static let stamp = SyncTriggers.stampStatements(owner: "?1", kind: "completion", key: "?2", deleted: false)

    /// The insert triggers of completions and skips look at `cache_deferred` (migration 35): with
    /// a row there they do nothing, and each habit is touched once after `body`. The row is taken
    /// out again whether `body` succeeds or not, so the transaction never goes on without them.
    func touchingCacheOnce(_ touched: [(habit: String, day: String)], _ body: () throws -> Void) throws {
        try database.run("INSERT INTO cache_deferred (deferred) VALUES (1)", [])
        do {
            try body()
            for (habit, day) in touched { try touch(.text(habit), from: .text(day)) }
        } catch {
            _ = try? database.run("DELETE FROM cache_deferred", [])
            throw error
        }
        try database.run("DELETE FROM cache_deferred", [])
    }

    /// The row triggers are dropped for the slice and created again after it, in the caller's
    /// transaction (`CacheTriggers.completionInsertTrigger`, `SyncTriggers.completionInsertTrigger`);
    /// each habit of the slice is invalidated once, from its earliest day, and, for an owner that
    /// syncs, each record inserted is stamped in the change log.
    func insertIfAbsent(_ completions: ArraySlice<Completion>) throws -> [Bool] {
        guard completions.count > 1 else { return try completions.map { try insertIfAbsent($0) } }
        var earliest: [UUID: LocalDay] = [:]
        for completion in completions { earliest[completion.habitID] = min(earliest[completion.habitID] ?? completion.completedOn, completion.completedOn) }
        try database.execute("DROP TRIGGER completions_cache_insert; DROP TRIGGER completions_sync_insert")
        let answers: [Bool]
        do {
            answers = try completions.map { try insertIfAbsent($0) }
            for (habit, day) in earliest { try touch(.id(habit), from: .day(day)) }
            if try database.scalarInteger("SELECT 1 FROM sync_owners WHERE owner = ?", [owner]) != nil {
                for (completion, inserted) in zip(completions, answers) where inserted {
                    try database.run(Self.stamp.advance, [owner])
                    try database.run(Self.stamp.entry, [owner, .id(completion.id)])
                }
            }
        } catch {
            // The transaction is rolled back with the error; the triggers are back either way.
            try? database.execute(CacheTriggers.completionInsertTrigger + ";\n" + SyncTriggers.completionInsertTrigger)
            throw error
        }
        // A failure here fails the transaction: it never commits without the triggers.
        try database.execute(CacheTriggers.completionInsertTrigger + ";\n" + SyncTriggers.completionInsertTrigger)
        return answers
    }
}
