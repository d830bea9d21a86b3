/// A stored policy script that cannot be used as it is.
public enum PolicyScriptError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The source does not hash to the SHA-256 it is stored under (a row edited by hand).
    case tampered(name: String, stored: String, actual: String)
    /// A revision pins a hash the store has no script for.
    case missing(name: String, sha256: String)

    public var description: String {
        switch self {
        case .tampered(let name, let stored, let actual):
            "stored script \(name)@\(stored.prefix(12)) was altered: its source hashes to \(actual.prefix(12)); restore it from a backup or run 'stackday policy upgrade \(name)'"
        case .missing(let name, let sha256):
            "no stored script \(name)@\(sha256.prefix(12)); import a backup that carries it or install the policy again"
        }
    }
}
