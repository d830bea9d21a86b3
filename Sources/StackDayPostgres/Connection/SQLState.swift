/// A PostgreSQL SQLSTATE error code by name, as PostgresNIO names them; compared and matched
/// by pattern (`case .uniqueViolation`), never as a raw string in the code that handles it.
public struct SQLState: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public static let uniqueViolation = SQLState(rawValue: "23505")
    public static let foreignKeyViolation = SQLState(rawValue: "23503")
    public static let checkViolation = SQLState(rawValue: "23514")
    public static let serializationFailure = SQLState(rawValue: "40001")
    public static let deadlockDetected = SQLState(rawValue: "40P01")
    public static let queryCanceled = SQLState(rawValue: "57014")
    public static let undefinedTable = SQLState(rawValue: "42P01")
    /// No code: a client-side failure such as a lost connection.
    public static let none = SQLState(rawValue: "")

    public var description: String { rawValue }

    public static func ~= (pattern: SQLState, value: SQLState) -> Bool { pattern == value }
}
