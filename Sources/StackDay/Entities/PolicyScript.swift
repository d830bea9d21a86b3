import Foundation

/// A policy script as a store keeps it: immutable, known by the SHA-256 of its source.
public struct PolicyScript: Hashable, Sendable {
    /// The policy's name (`grace`), as habits name it.
    public let name: String
    /// SHA-256 of the source's UTF-8 bytes, 64 lowercase hex digits.
    public let sha256: String
    public let source: String
    /// When the script was first stored, or last installed.
    public let installedAt: Date
    /// Whether the user installed it (`policy install`, the editor, `PUT /v1/policies/{name}`),
    /// rather than a habit storing it when it first ran it: an installed script is the first
    /// place its name is found (`PolicyDirectory`).
    public let installed: Bool

    /// A script for `source`, its hash computed here.
    public init(name: String, source: String, installedAt: Date, installed: Bool = false) {
        self.name = name
        self.source = source
        self.sha256 = SHA256(of: source).description
        self.installedAt = installedAt
        self.installed = installed
    }

    /// A script read back with the hash it was stored under; throws `PolicyScriptError.tampered`
    /// when the source does not hash to it.
    public init(name: String, sha256: String, source: String, installedAt: Date, installed: Bool = false) throws(PolicyScriptError) {
        self.init(name: name, source: source, installedAt: installedAt, installed: installed)
        guard self.sha256 == sha256 else { throw .tampered(name: name, stored: sha256, actual: self.sha256) }
    }

    /// The digest `sha256` writes out, read back rather than computed again: every script's hash
    /// was computed (or checked against its source) when it was made.
    public var digest: SHA256 { SHA256(hex: sha256) ?? SHA256(of: source) }

    /// The same script marked installed at `now`.
    public func installed(at now: Date) -> PolicyScript {
        PolicyScript(name: name, source: source, installedAt: now, installed: true)
    }

    /// Throws `UseCaseError.scriptNotText` when the source holds a NUL byte: scripts are text,
    /// and a NUL is where C APIs and PostgreSQL's text would cut or refuse them.
    public func checkIsText() throws {
        guard let index = source.utf8.firstIndex(of: 0) else { return }
        throw UseCaseError.scriptNotText(name: name, offset: source.utf8.distance(from: source.utf8.startIndex, to: index))
    }

    /// The most bytes a script installed for a user may have. Lua's compiler takes time growing
    /// faster than the text for some shapes (long `elseif` and `or` chains), so the size of what
    /// anyone can make the server compile is bounded; no honest policy comes near it.
    public static let maximumInstalledBytes = 256 * 1024

    /// Throws `UseCaseError.scriptTooLarge` for a source over `maximumInstalledBytes`.
    public func checkSize() throws {
        let size = source.utf8.count
        guard size <= Self.maximumInstalledBytes else {
            throw UseCaseError.scriptTooLarge(name: name, bytes: size, limit: Self.maximumInstalledBytes)
        }
    }

    /// The first 12 hex digits, as listings show a script.
    public var shortHash: String { String(sha256.prefix(12)) }

    /// Whether `text` could be a script hash: 64 lowercase hex digits.
    public static func isHash(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
