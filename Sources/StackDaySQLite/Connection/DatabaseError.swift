import CSQLite

/// A failure reported by SQLite, with its result code, message and the SQL (never the bound values).
public struct DatabaseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The extended result code (`SQLITE_BUSY_SNAPSHOT`, `SQLITE_CONSTRAINT_UNIQUE`, …).
    public let extendedCode: Int32
    public let message: String
    public let sql: String?

    /// The primary result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT`, …).
    public var code: Int32 { extendedCode & 0xFF }

    /// The extended result code by name; `case .readOnly` matches it whatever its extension.
    public var resultCode: ResultCode { ResultCode(rawValue: extendedCode) }

    public init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// SQLite's name for the code, e.g. `SQLITE_READONLY`.
    public var codeName: String {
        switch code {
        case SQLITE_ERROR: return "SQLITE_ERROR"
        case SQLITE_PERM: return "SQLITE_PERM"
        case SQLITE_BUSY: return "SQLITE_BUSY"
        case SQLITE_LOCKED: return "SQLITE_LOCKED"
        case SQLITE_NOMEM: return "SQLITE_NOMEM"
        case SQLITE_READONLY: return "SQLITE_READONLY"
        case SQLITE_IOERR: return "SQLITE_IOERR"
        case SQLITE_CORRUPT: return "SQLITE_CORRUPT"
        case SQLITE_FULL: return "SQLITE_FULL"
        case SQLITE_CANTOPEN: return "SQLITE_CANTOPEN"
        case SQLITE_CONSTRAINT: return "SQLITE_CONSTRAINT"
        case SQLITE_MISMATCH: return "SQLITE_MISMATCH"
        case SQLITE_NOTADB: return "SQLITE_NOTADB"
        default: return "SQLite code \(code)"
        }
    }

    public var description: String {
        var text = "\(message) (\(codeName)"
        if extendedCode != code { text += ", extended code \(extendedCode)" }
        text += ")"
        if let sql { text += " in: \(sql)" }
        return text
    }
}
