/// `POST /v1/sync`'s answer: the server's changes after the request's `since` that the device did
/// not make, the position to ask from next, whether more wait, and how many pushed changes the
/// server took.
public struct SyncResponse: Sendable {
    public let changes: [SyncChange]
    public let position: Int64
    public let more: Bool
    public let accepted: Int
    /// The device asked from past the end of the server's log: the server lost history (its store
    /// restored from a backup, or replaced). It answers from the start, and the device pushes all it
    /// holds again (`"reset": true`, present only then).
    public let reset: Bool
    /// Pushed changes taken but not kept, with why (`"refused": [...]`, present only when some were).
    public let refused: [SyncRefusal]
    /// Whether the changes go in the compact form (`SyncWireForm`): as the request came.
    public let compact: Bool
    /// Who answers: the server's id and epoch (`"server": {"id", "epoch"}`); nil from a server
    /// from before identities.
    public let server: SyncServerIdentity?
    /// The server's hybrid time when it answered (`"now"`): a device whose clock ran ahead of it
    /// takes it back.
    public let now: Int64?
    /// The server's mark of `position` (`"mark"`): made at random the first time the position is
    /// answered and kept with the log. A device asks from a position with its mark; a server whose
    /// mark differs, or that has none, is not the history the device pulled from (its store was
    /// put back from a backup and went on), and starts a new epoch.
    public let mark: String?

    public init(changes: [SyncChange], position: Int64, more: Bool, accepted: Int, reset: Bool = false, refused: [SyncRefusal] = [],
                compact: Bool = false, server: SyncServerIdentity? = nil, now: Int64? = nil, mark: String? = nil) {
        self.mark = mark
        self.compact = compact
        self.server = server
        self.now = now
        self.changes = changes
        self.position = position
        self.more = more
        self.accepted = accepted
        self.reset = reset
        self.refused = refused
    }

    public var json: JSONValue {
        var object: [String: JSONValue] = ["position": .number(Double(position)), "more": .bool(more), "accepted": .number(Double(accepted))]
        if compact {
            object["form"] = .number(Double(SyncWireForm.number))
            object.merge(SyncWireForm.encode(changes)) { $1 }
        } else {
            object["changes"] = .array(changes.map(\.json))
        }
        if reset { object["reset"] = .bool(true) }
        if let server { object["server"] = .object(["id": .string(server.id), "epoch": .string(server.epoch)]) }
        if let now { object["now"] = .string(String(now)) }
        if let mark { object["mark"] = .string(mark) }
        if !refused.isEmpty { object["refused"] = .array(refused.map(\.json)) }
        return .object(object)
    }

    public init(json: JSONValue) throws(SyncError) {
        guard let object = json.objectValue, case .array(let items)? = object["changes"], case .bool(let more)? = object["more"],
              let position = object["position"]?.numberValue, position >= 0, position.rounded() == position else {
            throw .invalidAnswer("is not {\"changes\": [...], \"position\": N, \"more\": true|false}")
        }
        if object["form"] == .number(2) { throw .invalidAnswer("is in form 2, a protocol of an older server: update stackday on the server") }
        let compact = object["form"] == .number(Double(SyncWireForm.number))
        var changes: [SyncChange] = []
        if compact {
            do { changes = try SyncWireForm.decode(object) } catch { throw .invalidAnswer("has a bad change: \(error)") }
        } else {
            for (index, item) in items.enumerated() {
                do { changes.append(try SyncChange(json: item, index: index)) } catch { throw .invalidAnswer("has a bad change: \(error)") }
            }
        }
        let refused = object["refused"]?.arrayValue?.compactMap(SyncRefusal.init(json:)) ?? []
        var server: SyncServerIdentity?
        if case .object(let identity)? = object["server"] {
            guard let id = identity["id"]?.stringValue, let epoch = identity["epoch"]?.stringValue, !id.isEmpty, !epoch.isEmpty else {
                throw .invalidAnswer("has \"server\" without its \"id\" and \"epoch\"")
            }
            server = SyncServerIdentity(id: id, epoch: epoch)
        }
        self.init(changes: changes, position: Int64(position), more: more, accepted: Int(object["accepted"]?.numberValue ?? 0),
                  reset: object["reset"] == .bool(true), refused: refused, compact: compact, server: server,
                  now: object["now"]?.stringValue.flatMap { Int64($0) }, mark: object["mark"]?.stringValue.flatMap { SyncRequest.isMark($0) ? $0 : nil })
    }
}
