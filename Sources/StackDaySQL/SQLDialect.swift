/// How the two stores' SQL differs where the statements are otherwise one text: the column that
/// names a row's owner, and how parameters are written.
///
/// Statements are written once in PostgreSQL's form, `$1`, `$2`, … (with a `::type` cast where a
/// parameter's type cannot be inferred from its column); SQLite's dialect rewrites them to its
/// numbered `?1`, `?2`, … and drops the casts. What remains different is named where it is
/// decided: the schema, the transactions (`BEGIN IMMEDIATE` against an advisory lock), and bulk
/// inserts (a prepared statement bound from a stack buffer against `COPY`).
public struct SQLDialect: Sendable {
    /// The column naming the owner of a row: `owner` in SQLite, `user_id` in PostgreSQL.
    public let owner: String
    /// What orders records of one day recorded at the same instant: SQLite's `rowid` keeps the
    /// order they were written in; PostgreSQL keeps none, and orders them by id.
    public let tieBreak: String
    /// Whether a key's `IN (…)` list is searched in the key's index whatever the table's
    /// statistics say: SQLite's planner does; PostgreSQL's, with statistics from before a table
    /// grew (a first sync), filters the list through every row of the index's leading columns, so
    /// there each key is looked up on its own (`SQLSyncRepository.lookups`).
    public let searchesKeyLists: Bool
    private let numberedQuestionMarks: Bool

    public static let sqlite = SQLDialect(owner: "owner", tieBreak: "rowid", searchesKeyLists: true, numberedQuestionMarks: true)
    public static let postgres = SQLDialect(owner: "user_id", tieBreak: "id", searchesKeyLists: false, numberedQuestionMarks: false)

    /// Whether this is SQLite's dialect (there are two: `sqlite` and `postgres`).
    var isSQLite: Bool { numberedQuestionMarks }

    /// `sql`, written with `$N` parameters, in this dialect.
    public func statement(_ sql: String) -> String {
        guard numberedQuestionMarks else { return sql }
        // Byte by byte: every store opened rewrites every statement its repositories keep.
        let bytes = Array(sql.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        func isWordByte(_ byte: UInt8) -> Bool { isDigit(byte) || byte == 0x5F || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            guard byte == UInt8(ascii: "$"), index < bytes.count, isDigit(bytes[index]) else {
                out.append(byte)
                continue
            }
            out.append(UInt8(ascii: "?"))
            while index < bytes.count, isDigit(bytes[index]) {
                out.append(bytes[index])
                index += 1
            }
            // A cast after a parameter: `$2::uuid` is `?2`.
            if index + 1 < bytes.count, bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: ":") {
                index += 2
                while index < bytes.count, isWordByte(bytes[index]) { index += 1 }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
