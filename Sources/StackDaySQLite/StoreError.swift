/// Why a file cannot serve as the StackDay store.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    case notADatabase(path: String)
    case foreignDatabase(path: String)
    case newerSchema(path: String, version: Int, supported: Int)
    case walUnavailable(path: String, mode: String)
    case readOnly(path: String)
    case cannotCreateFolder(path: String, reason: String)
    /// A schema upgrade found a row whose parent is missing; the upgrade was rolled back.
    case brokenReference(path: String, table: String)

    public var description: String {
        switch self {
        case .notADatabase(let path):
            return "\(path) is not a SQLite database; choose another file with --db or STACKDAY_DB"
        case .foreignDatabase(let path):
            return "\(path) is a SQLite database of another application; StackDay will not change it"
        case .newerSchema(let path, let version, let supported):
            return "\(path) was written by a newer StackDay (schema \(version), this version knows up to \(supported)); upgrade StackDay"
        case .walUnavailable(let path, let mode):
            return "\(path) cannot use write-ahead logging (journal mode stayed '\(mode)')"
        case .readOnly(let path):
            return "\(path) is read-only; nothing was written"
        case .cannotCreateFolder(let path, let reason):
            return "cannot create the folder for \(path): \(reason)"
        case .brokenReference(let path, let table):
            return "\(path) has rows in \(table) whose habit or script is missing; the schema upgrade was rolled back and nothing was changed"
        }
    }
}
