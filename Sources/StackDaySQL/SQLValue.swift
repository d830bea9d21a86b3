/// A value bound to a statement parameter, in either store. PostgreSQL receives every value as
/// text and types it by its column (a blob as bytea's `\x…` hex form).
public enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}
