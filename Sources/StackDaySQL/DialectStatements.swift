/// A repository's statements in one dialect, made once for each dialect and kept. A server opens
/// a user's repositories for every request it answers; writing their text again each time was
/// a few percent of a busy server's time.
protocol DialectStatements: Sendable {
    init(_ dialect: SQLDialect)
    /// The statements in SQLite's dialect: a `static let`, made on first use.
    static var sqlite: Self { get }
    /// The statements in PostgreSQL's dialect: a `static let`, made on first use.
    static var postgres: Self { get }
}

extension DialectStatements {
    /// The statements in `dialect`.
    static func of(_ dialect: SQLDialect) -> Self { dialect.isSQLite ? sqlite : postgres }
}
