import Foundation
import StackDay
import StackDaySQL

/// SQLite's import path for completions: one prepared statement, each row bound from a stack
/// buffer (no String per id or day), so a million-row import allocates nothing per row.
final class SQLiteBulkCompletions: SQLBulkCompletions {
    private let database: Database
    private let ownerBytes: [UInt8]
    private static let sql = """
        INSERT INTO completions (owner, id, habit_id, completed_on, recorded_at, amount_thousandths) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
        ON CONFLICT (owner, id) DO NOTHING
        """

    init(database: Database, owner: String) {
        self.database = database
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
        try statement.execute()
        return database.changes == 1
    }

    func insertIfAbsent(_ completions: ArraySlice<Completion>) throws -> [Bool] {
        try completions.map { try insertIfAbsent($0) }
    }
}
