import Foundation
import StackDay

/// One user's completions in PostgreSQL (a hash partition of `completions` holds them all).
final class PostgresCompletionRepository: CompletionRepository {
    private let connection: PostgresConnection
    private let owner: String
    private static let columns = "id, habit_id, completed_on, recorded_at, amount_thousandths"
    private static let order = "ORDER BY completed_on, recorded_at, id"

    init(connection: PostgresConnection, owner: String) {
        self.connection = connection
        self.owner = owner
    }

    private func decode(_ rows: PostgresRows) throws -> [Completion] {
        let table = "completions"
        return try (0..<rows.count).map { row in
            try Completion(
                id: PostgresDecoding.uuid(rows, row, 0, table: table), habitID: PostgresDecoding.uuid(rows, row, 1, table: table),
                completedOn: PostgresDecoding.day(rows, row, 2, table: table), recordedAt: PostgresDecoding.instant(rows, row, 3),
                amount: PostgresDecoding.quantity(rows, row, 4)
            )
        }
    }

    private func values(_ completion: Completion) -> [PostgresValue] {
        [.text(owner), PostgresDecoding.id(completion.id), PostgresDecoding.id(completion.habitID), PostgresDecoding.day(completion.completedOn),
         PostgresDecoding.instant(completion.recordedAt), .integer(completion.amountThousandths)]
    }

    private static let insertSQL = """
        INSERT INTO completions (user_id, \(columns)) VALUES ($1, $2::uuid, $3::uuid, $4::date, $5, $6) ON CONFLICT (user_id, id) DO NOTHING
        """

    func insert(_ completion: Completion) throws {
        guard try connection.execute(Self.insertSQL, values(completion)).changed == 1 else {
            throw RepositoryError.duplicateID(entity: "completion", id: completion.id)
        }
    }

    func update(_ completion: Completion) throws {
        let updated = try connection.execute("""
            UPDATE completions SET habit_id = $3::uuid, completed_on = $4::date, recorded_at = $5, amount_thousandths = $6
            WHERE user_id = $1 AND id = $2::uuid
            """, values(completion))
        guard updated.changed == 1 else { throw RepositoryError.notFound(entity: "completion", id: completion.id) }
    }

    func delete(id: UUID) throws {
        let deleted = try connection.execute("DELETE FROM completions WHERE user_id = $1 AND id = $2::uuid",
                                             [.text(owner), PostgresDecoding.id(id)])
        guard deleted.changed == 1 else { throw RepositoryError.notFound(entity: "completion", id: id) }
    }

    func completion(id: UUID) throws -> Completion? {
        try decode(connection.execute("SELECT \(Self.columns) FROM completions WHERE user_id = $1 AND id = $2::uuid",
                                      [.text(owner), PostgresDecoding.id(id)])).first
    }

    func completions(habitID: UUID) throws -> [Completion] {
        try decode(connection.execute("SELECT \(Self.columns) FROM completions WHERE user_id = $1 AND habit_id = $2::uuid \(Self.order)",
                                      [.text(owner), PostgresDecoding.id(habitID)]))
    }

    func completions(habitID: UUID, in days: LocalDayRange) throws -> [Completion] {
        try decode(connection.execute("""
            SELECT \(Self.columns) FROM completions WHERE user_id = $1 AND habit_id = $2::uuid AND completed_on BETWEEN $3::date AND $4::date \(Self.order)
            """, [.text(owner), PostgresDecoding.id(habitID), PostgresDecoding.day(days.first), PostgresDecoding.day(days.last)]))
    }

    func dailyTotals(habitID: UUID, in days: LocalDayRange) throws -> [(day: LocalDay, thousandths: Int64)] {
        let rows = try connection.execute("""
            SELECT completed_on, sum(amount_thousandths) FROM completions
            WHERE user_id = $1 AND habit_id = $2::uuid AND completed_on BETWEEN $3::date AND $4::date
            GROUP BY completed_on ORDER BY completed_on
            """, [.text(owner), PostgresDecoding.id(habitID), PostgresDecoding.day(days.first), PostgresDecoding.day(days.last)])
        return try (0..<rows.count).map { (try PostgresDecoding.day(rows, $0, 0, table: "completions"), rows.integer($0, 1)) }
    }

    func insertIfAbsent(_ completion: Completion) throws -> Bool {
        guard try connection.execute(Self.insertSQL, values(completion)).changed == 1 else { return false }
        return true
    }

    /// The slice is streamed in the COPY protocol straight into `completions` (under a savepoint);
    /// when one of its ids is already stored, that is undone and the slice goes through a
    /// temporary staging table and one `INSERT … SELECT … ON CONFLICT DO NOTHING`, which answers
    /// with the ids it inserted.
    func insertIfAbsent(_ completions: ArraySlice<Completion>) throws -> [Bool] {
        guard !completions.isEmpty else { return [] }
        try connection.execute("SAVEPOINT stackday_copy")
        do {
            try connection.copyIn("COPY completions (user_id, \(Self.columns)) FROM STDIN", data: Self.copyRows(completions, owner: owner))
            try connection.execute("RELEASE SAVEPOINT stackday_copy")
            return completions.map { _ in true }
        } catch let error as PostgresError where error.sqlState == "23505" /* unique_violation */ {
            try connection.execute("ROLLBACK TO SAVEPOINT stackday_copy")
        }
        try connection.execute("""
            CREATE TEMPORARY TABLE IF NOT EXISTS staged_completions (
                id uuid NOT NULL, habit_id uuid NOT NULL, completed_on date NOT NULL, recorded_at double precision NOT NULL,
                amount_thousandths bigint NOT NULL
            ) ON COMMIT DELETE ROWS
            """)
        try connection.copyIn("COPY staged_completions FROM STDIN", data: Self.copyRows(completions))
        let rows = try connection.execute("""
            INSERT INTO completions (user_id, \(Self.columns)) SELECT $1, \(Self.columns) FROM staged_completions
            ON CONFLICT (user_id, id) DO NOTHING RETURNING id
            """, [.text(owner)])
        try connection.execute("TRUNCATE staged_completions")
        var inserted = Set<UUID>()
        for row in 0..<rows.count { inserted.insert(try PostgresDecoding.uuid(rows, row, 0, table: "completions")) }
        // An id twice in one slice is inserted once: the first is new, the second already present.
        return completions.map { completion in
            guard inserted.remove(completion.id) != nil else { return false }
            return true
        }
    }

    /// The rows in COPY's text format: tab-separated, one per line, led by `owner` when given
    /// (escaped; no other field can hold a backslash, tab or line break).
    static func copyRows(_ completions: ArraySlice<Completion>, owner: String? = nil) -> [UInt8] {
        var bytes: [UInt8] = []
        var lead: [UInt8] = []
        if let owner {
            for byte in owner.utf8 {
                switch byte {
                case UInt8(ascii: "\\"): lead += [92, 92]
                case 9: lead += [92, UInt8(ascii: "t")]
                case 10: lead += [92, UInt8(ascii: "n")]
                case 13: lead += [92, UInt8(ascii: "r")]
                default: lead.append(byte)
                }
            }
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
            bytes += "\(completion.recordedAt.timeIntervalSince1970)\t\(completion.amountThousandths)\n".utf8
        }
        return bytes
    }

    func deleteAll(habitID: UUID) throws -> Int {
        return try connection.execute("DELETE FROM completions WHERE user_id = $1 AND habit_id = $2::uuid", [.text(owner), PostgresDecoding.id(habitID)]).changed
    }
}
