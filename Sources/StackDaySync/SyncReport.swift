import StackDay

/// What one sync moved: the device's log entries the server took, and the server's changes the
/// device applied or already held.
public struct SyncReport: Sendable, Equatable {
    public var pushed: Int
    public var pulled: Int
    /// Habits of this device renamed on the server's word, in the order they were pulled.
    public var renamed: [SyncRename]

    public init(pushed: Int = 0, pulled: Int = 0, renamed: [SyncRename] = []) {
        self.pushed = pushed
        self.pulled = pulled
        self.renamed = renamed
    }

    /// `{"pulled": M, "pushed": N}`, what `stackday sync --json` prints, with
    /// `"renamed": [{"from": …, "to": …}]` when the server renamed a habit this device held.
    public var json: JSONValue {
        var object: [String: JSONValue] = ["pushed": .number(Double(pushed)), "pulled": .number(Double(pulled))]
        if !renamed.isEmpty {
            object["renamed"] = .array(renamed.map { .object(["from": .string($0.from), "to": .string($0.to)]) })
        }
        return .object(object)
    }
}
