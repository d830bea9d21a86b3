/// `POST /v1/sync`'s answer: the server's changes after the request's `since` that the device did
/// not make, the position to ask from next, whether more wait, and how many pushed changes the
/// server took.
public struct SyncResponse: Sendable {
    public let changes: [SyncChange]
    public let position: Int64
    public let more: Bool
    public let accepted: Int

    public init(changes: [SyncChange], position: Int64, more: Bool, accepted: Int) {
        self.changes = changes
        self.position = position
        self.more = more
        self.accepted = accepted
    }

    public var json: JSONValue {
        .object(["changes": .array(changes.map(\.json)), "position": .number(Double(position)), "more": .bool(more), "accepted": .number(Double(accepted))])
    }

    public init(json: JSONValue) throws(SyncError) {
        guard let object = json.objectValue, case .array(let items)? = object["changes"], case .bool(let more)? = object["more"],
              let position = object["position"]?.numberValue, position >= 0, position.rounded() == position else {
            throw .invalidAnswer("is not {\"changes\": [...], \"position\": N, \"more\": true|false}")
        }
        var changes: [SyncChange] = []
        for (index, item) in items.enumerated() {
            do { changes.append(try SyncChange(json: item, index: index)) } catch { throw .invalidAnswer("has a bad change: \(error)") }
        }
        self.init(changes: changes, position: Int64(position), more: more, accepted: Int(object["accepted"]?.numberValue ?? 0))
    }
}
