/// A libpq failure: the SQLSTATE code when the server sent one, its message and the SQL.
public struct PostgresError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The five-character SQLSTATE (`40001` serialization failure, `23505` unique violation), or
    /// empty for a client-side failure such as a lost connection.
    public let sqlState: String
    public let message: String
    public let sql: String?

    public init(sqlState: String, message: String, sql: String?) {
        self.sqlState = sqlState
        self.message = message
        self.sql = sql
    }

    /// The SQLSTATE by name.
    public var state: SQLState { SQLState(rawValue: sqlState) }

    /// A serialization failure or a deadlock: the transaction may simply be run again.
    public var isRetryable: Bool {
        switch state {
        case .serializationFailure, .deadlockDetected: true
        default: false
        }
    }

    public var description: String {
        let code = sqlState.isEmpty ? "" : " (SQLSTATE \(sqlState))"
        return "\(message)\(code)" + (sql.map { " in: \($0)" } ?? "")
    }
}
