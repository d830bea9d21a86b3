import Foundation
import StackDay
import StackDaySQL

/// PostgreSQL's import path for completions: a slice is streamed in the `COPY` protocol straight
/// into `completions` (under a savepoint); when one of its ids is already stored
/// (`SQLState.uniqueViolation`), that is undone and the slice goes through a temporary staging
/// table and one `INSERT … SELECT … ON CONFLICT DO NOTHING`, which answers with the ids it inserted.
final class PostgresBulkCompletions: SQLBulkCompletions {
    private let connection: PostgresConnection
    private let owner: String
    private static let columns = "id, habit_id, completed_on, recorded_at, amount_thousandths, note"

    init(connection: PostgresConnection, owner: String) {
        self.connection = connection
        self.owner = owner
    }

    /// PostgreSQL's cache and log triggers already run once a statement, over all its rows: they stay on.
    func insertingOnce(_ kind: SyncKind, touched: [(habit: String, day: String)], _ body: () throws -> [String]) throws {
        _ = try body()
    }

    func insertIfAbsent(_ completions: ArraySlice<Completion>) throws -> [Bool] {
        guard !completions.isEmpty else { return [] }
        try connection.execute("SAVEPOINT stackday_copy")
        do {
            try connection.copyIn("COPY completions (user_id, \(Self.columns)) FROM STDIN", data: Self.copyRows(completions, owner: owner))
            try connection.execute("RELEASE SAVEPOINT stackday_copy")
            return completions.map { _ in true }
        } catch let error as PostgresError where error.state == .uniqueViolation {
            try connection.execute("ROLLBACK TO SAVEPOINT stackday_copy")
        }
        try connection.execute("""
            CREATE TEMPORARY TABLE IF NOT EXISTS staged_completions (
                id uuid NOT NULL, habit_id uuid NOT NULL, completed_on date NOT NULL, recorded_at double precision NOT NULL,
                amount_thousandths bigint NOT NULL, note text
            ) ON COMMIT DELETE ROWS
            """)
        try connection.copyIn("COPY staged_completions FROM STDIN", data: Self.copyRows(completions))
        let inserted = try connection.rows("""
            INSERT INTO completions (user_id, \(Self.columns)) SELECT $1, \(Self.columns) FROM staged_completions
            ON CONFLICT (user_id, id) DO NOTHING RETURNING id
            """, [.text(owner)]) { try $0.uuid("id", table: "completions") }
        try connection.execute("TRUNCATE staged_completions")
        var remaining = Set(inserted)
        // An id twice in one slice is inserted once: the first is new, the second already present.
        return completions.map { completion in remaining.remove(completion.id) != nil }
    }

    /// `text` as a field of COPY's text format: backslash, tab and line breaks escaped.
    static func appendEscaped(_ text: String, to bytes: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): bytes += [92, 92]
            case 9: bytes += [92, UInt8(ascii: "t")]
            case 10: bytes += [92, UInt8(ascii: "n")]
            case 13: bytes += [92, UInt8(ascii: "r")]
            default: bytes.append(byte)
            }
        }
    }

    /// The rows in COPY's text format: tab-separated, one per line, led by `owner` when given;
    /// the owner and the note are escaped (no other field can hold a backslash, tab or line
    /// break), and no note is `\N`.
    static func copyRows(_ completions: ArraySlice<Completion>, owner: String? = nil) -> [UInt8] {
        var bytes: [UInt8] = []
        var lead: [UInt8] = []
        if let owner {
            appendEscaped(owner, to: &lead)
            lead.append(9)
        }
        bytes.reserveCapacity(completions.count * (112 + lead.count))
        var field = [UInt8](repeating: 0, count: 36)
        for completion in completions {
            bytes += lead
            field.withUnsafeMutableBufferPointer { UUIDText.write(completion.id, into: $0) }
            bytes += field
            bytes.append(9)
            field.withUnsafeMutableBufferPointer { UUIDText.write(completion.habitID, into: $0) }
            bytes += field
            bytes.append(9)
            field.withUnsafeMutableBufferPointer { completion.completedOn.writeISO(into: UnsafeMutableBufferPointer(rebasing: $0[0..<10])) }
            bytes += field[0..<10]
            bytes.append(9)
            bytes += "\(completion.recordedAt.timeIntervalSince1970)\t\(completion.amountThousandths)\t".utf8
            if let note = completion.note { appendEscaped(note, to: &bytes) } else { bytes += [92, UInt8(ascii: "N")] }
            bytes.append(10)
        }
        return bytes
    }
}
