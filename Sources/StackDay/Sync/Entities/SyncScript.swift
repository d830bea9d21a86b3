import Foundation

/// A policy script as sync carries it: its text, known by the text's SHA-256, and whether it is
/// installed under its name or only stored (pinned by a habit).
public struct SyncScript: SyncEntityValue {
    public var sha256 = ""
    public var name = ""
    public var source = ""
    public var installedAt = 0.0
    public var installed = false

    public init(sha256: String, name: String, source: String, installedAt: Double, installed: Bool) {
        self.sha256 = sha256
        self.name = name
        self.source = source
        self.installedAt = installedAt
        self.installed = installed
    }

    private init() {}

    public static let kind = SyncKind.script
    public static let blank = SyncScript()
    public var key: String { sha256 }

    public static let fields: [SyncField<SyncScript>] = [
        .text("sha256", .hash, \.sha256), .text("name", .text(limit: 200, empty: false), \.name),
        .text("source", .text(limit: SyncRules.scriptLimit, empty: false), \.source), .instant("installedAt", \.installedAt),
        .flag("installed", \.installed),
    ]

    /// The same script held on two sides: its text never differs. It is installed when either side
    /// installed it, at the later of their install times; stored on both sides (pinned by a habit,
    /// not installed), at the earlier of the times each stored it. A join: every replica settles on
    /// the same script whatever order they merge in.
    public func joined(with other: SyncScript) -> SyncScript {
        func rank(_ script: SyncScript) -> (Int, Double) { script.installed ? (1, script.installedAt) : (0, -script.installedAt) }
        guard rank(other) > rank(self) else { return self }
        var joined = self
        joined.installed = other.installed
        joined.installedAt = other.installedAt
        return joined
    }
}
