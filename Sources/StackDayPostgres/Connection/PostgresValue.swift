/// A parameter value, sent to the server as text and typed by the SQL (`$1::date`).
enum PostgresValue {
    case null
    case text(String)
    case integer(Int64)
    /// Sent with 17 significant digits, which PostgreSQL's `double precision` reads back exactly.
    case real(Double)

    var text: String? {
        switch self {
        case .null: nil
        case .text(let value): value
        case .integer(let value): String(value)
        case .real(let value): "\(value)"
        }
    }
}
