import StackDay

/// What one sync moved: the device's log entries the server took, and the server's changes the
/// device applied or already held.
public struct SyncReport: Sendable, Equatable {
    public var pushed: Int
    public var pulled: Int

    public init(pushed: Int = 0, pulled: Int = 0) {
        self.pushed = pushed
        self.pulled = pulled
    }

    /// `{"pulled": M, "pushed": N}`, what `stackday sync --json` prints.
    public var json: JSONValue { .object(["pushed": .number(Double(pushed)), "pulled": .number(Double(pulled))]) }
}
