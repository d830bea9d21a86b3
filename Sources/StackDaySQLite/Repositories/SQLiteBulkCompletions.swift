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
    /// `sync_deferred` (migration 36): with a row in each they do nothing; after `body`, each
    /// habit is touched once and, for an owner that syncs, the keys `body` answers are logged in
    /// two statements. The rows are taken out again whether `body` succeeds or not, so the
    /// transaction never goes on without the triggers.
    func insertingOnce(_ kind: SyncKind, touched: [(habit: String, day: String)], _ body: () throws -> [String]) throws {
        try database.run("INSERT INTO cache_deferred (deferred) VALUES (1)", [])
        try database.run("INSERT INTO sync_deferred (deferred) VALUES (1)", [])
        do {
            let keys = try body()
            for (habit, day) in touched { try touch(.text(habit), from: .text(day)) }
            try log(kind, keys)
        } catch {
            _ = try? database.run("DELETE FROM cache_deferred", [])
            _ = try? database.run("DELETE FROM sync_deferred", [])
            throw error
        }
        try database.run("DELETE FROM cache_deferred", [])
        try database.run("DELETE FROM sync_deferred", [])
    }

    private static let batches = (completion: SyncTriggers.batchStatements(kind: SyncKind.completion.rawValue),
                                  skip: SyncTriggers.batchStatements(kind: SyncKind.skip.rawValue))

    /// New rows of `kind` (records or skips) entered in the change log as their row triggers would
    /// have, one after another in `keys`' order; nothing for an owner that does not sync.
    private func log(_ kind: SyncKind, _ keys: [String]) throws {
        precondition(kind == .skip || kind == .completion, "only records and skips are logged in batches")
        guard !keys.isEmpty, try database.scalarInteger("SELECT 1 FROM sync_owners WHERE owner = ?", [owner]) != nil else { return }
        let statements = kind == .skip ? Self.batches.skip : Self.batches.completion
        try database.run(statements.entries, [owner, .text(JSONValue.array(keys.map(JSONValue.string)).jsonText)])
        try database.run(statements.advance, [owner, .integer(Int64(keys.count))])
    }

    /// A slice inserted with the row triggers set aside (`insertingOnce`): each habit of the slice
    /// is invalidated once, from its earliest day, and, for an owner that syncs, the records
    /// inserted are logged after them.
    func insertIfAbsent(_ completions: ArraySlice<Completion>) throws -> [Bool] {
        guard completions.count > 1 else { return try completions.map { try insertIfAbsent($0) } }
        var earliest: [UUID: LocalDay] = [:]
        for completion in completions { earliest[completion.habitID] = min(earliest[completion.habitID] ?? completion.completedOn, completion.completedOn) }
        var answers: [Bool] = []
        try insertingOnce(.completion, touched: earliest.map { (habit: UUIDText.format($0.key), day: $0.value.iso) }) {
            answers = try completions.map { try insertIfAbsent($0) }
            return zip(completions, answers).filter(\.1).map { UUIDText.format($0.0.id) }
        }
        return answers
    }
}
