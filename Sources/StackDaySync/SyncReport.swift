import StackDay

/// What one sync moved: the device's log entries the server took, and the server's changes the
/// device applied or already held.
public struct SyncReport: Sendable, Equatable {
    public var pushed: Int
    public var pulled: Int
    /// Habits of this device renamed on the server's word, in the order they were pulled.
    public var renamed: [SyncRename]
    /// This device's habit field changes that lost to later ones made elsewhere.
    public var overridden: [SyncOverridden]
    /// This device's records and skips the server did not keep.
    public var refused: [SyncRefused]
    /// This store was a copy of another syncing under the same device id (a restored backup, a
    /// copied file): it took an id of its own and pushed and pulled everything again.
    public var copied = false
    /// The server's store was restored or copied (a new epoch): this device pushed everything it
    /// holds, so that what the server lost came back.
    public var restored = false
    /// Changes of this device stamped by a clock that had run ahead, stamped again from the server's.
    public var restamped = 0

    public init(pushed: Int = 0, pulled: Int = 0, renamed: [SyncRename] = [], overridden: [SyncOverridden] = [], refused: [SyncRefused] = []) {
        self.pushed = pushed
        self.pulled = pulled
        self.renamed = renamed
        self.overridden = overridden
        self.refused = refused
    }

    /// `{"pulled": M, "pushed": N}`, what `stackday sync --json` prints, with
    /// `"renamed": [{"from": …, "to": …}]` when the server renamed a habit this device held,
    /// `"overridden": [{"habit", "field", "mine", "kept"}]` when a field this device changed lost
    /// to a later change, and `"refused": [{"kind", "habit", "day", "code"}]` when the server did
    /// not keep a record or skip this device pushed (each present only when not empty), and
    /// `"copied": true`, `"restored": true`, `"restamped": N` when a copy, a restored server or a
    /// clock that ran ahead healed.
    public var json: JSONValue {
        var object: [String: JSONValue] = ["pushed": .number(Double(pushed)), "pulled": .number(Double(pulled))]
        if !renamed.isEmpty {
            object["renamed"] = .array(renamed.map { .object(["from": .string($0.from), "to": .string($0.to)]) })
        }
        if !overridden.isEmpty {
            object["overridden"] = .array(overridden.map {
                .object(["habit": .string($0.habit), "field": .string($0.field.rawValue), "mine": .string($0.mine), "kept": .string($0.kept)])
            })
        }
        if copied { object["copied"] = .bool(true) }
        if restored { object["restored"] = .bool(true) }
        if restamped > 0 { object["restamped"] = .number(Double(restamped)) }
        if !refused.isEmpty {
            object["refused"] = .array(refused.map {
                .object(["kind": .string($0.kind), "habit": .string($0.habit), "day": $0.day.map(JSONValue.string) ?? .null, "code": .string($0.code)])
            })
        }
        return .object(object)
    }
}
