/// What one user may hold on a shared store, so that no user fills it for the others. Going over
/// a limit stores nothing and throws `UseCaseError.quotaExceeded` (code `quota_exceeded`, HTTP
/// 429), naming the limit. docs/server.md lists them.
public struct UserLimits: Sendable, Equatable {
    /// Scripts stored for the user (each version of an installed script counts).
    public var scripts = 200
    /// Their sources' bytes together.
    public var scriptBytes = 8 << 20
    public var habits = 1_000
    public var webhooks = 20
    /// Paired devices.
    public var devices = 50

    public init() {}

    /// The limits every user has.
    public static let standard = UserLimits()

    /// Throws `quotaExceeded` when holding `count` (after the write) passes `maximum`.
    public static func check(_ name: String, _ count: Int, maximum: Int) throws {
        guard count <= maximum else { throw UseCaseError.quotaExceeded(limit: name, maximum: maximum) }
    }
}
