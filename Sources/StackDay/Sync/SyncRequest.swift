/// `POST /v1/sync`'s body: the device, the server position it pulled through, the changes it has
/// not pushed (at most `maxChanges`), and how many of the server's it wants back.
public struct SyncRequest: Sendable {
    public static let maxChanges = 2000

    public let device: String
    public let since: Int64
    public let changes: [SyncChange]
    public let limit: Int
    /// Whether the changes go in the compact form (`SyncWireForm`, `"form": 3`), in which the
    /// server answers too; else one object per change.
    public let compact: Bool
    /// The server's epoch the device pushes under (`SyncServerIdentity.epoch`, `"epoch"`): a server
    /// whose epoch has moved on since takes none of the changes and answers `reset`.
    public let epoch: String?
    /// Whether the changes are everything the device holds, not only what it made (`"full": true`):
    /// what a device sends a server whose epoch is new to it.
    public let full: Bool
    /// The id this store synced under before it took a new one (`"previous"`), for the record.
    public let previous: String?
    /// How many writes the device has made itself (`"written"`, the count that numbers its own
    /// changes, `SyncChange.seq`): a server that took a later one from this device id is talking
    /// to a copy of the store, or a backup put back, and answers `device_copied`.
    public let written: Int64?
    /// The server's mark of `since` (`SyncResponse.mark`, `"mark"`), when the device has one.
    public let mark: String?
    /// Whether the device has more of its changes to push after these (`"more"`); nil from a
    /// device that does not say. The server prepares the pushed history's figures after the last.
    public let more: Bool?

    public init(device: String, since: Int64, changes: [SyncChange], limit: Int = SyncRequest.maxChanges, compact: Bool = true,
                epoch: String? = nil, full: Bool = false, previous: String? = nil, written: Int64? = nil, mark: String? = nil,
                more: Bool? = nil) {
        self.device = device
        self.since = since
        self.changes = changes
        self.limit = limit
        self.compact = compact
        self.epoch = epoch
        self.full = full
        self.previous = previous
        self.written = written
        self.mark = mark
        self.more = more
    }

    /// Whether this is a push's last page: changes, and none after them (by the device's word,
    /// else by a page short of full, which is how a device that does not say ends a push).
    public var endsPush: Bool {
        !changes.isEmpty && !(more ?? (changes.count >= Self.maxChanges))
    }

    /// Whether `text` can be a position's mark: 1 to 64 letters, digits and dashes.
    public static func isMark(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count) && text.utf8.allSatisfy { $0 == 45 || (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) }
    }

    public var json: JSONValue {
        var object: [String: JSONValue] = ["device": .string(device), "since": .number(Double(since)), "limit": .number(Double(limit))]
        if let epoch { object["epoch"] = .string(epoch) }
        if full { object["full"] = .bool(true) }
        if let previous { object["previous"] = .string(previous) }
        if let written { object["written"] = .number(Double(written)) }
        if let mark { object["mark"] = .string(mark) }
        if let more { object["more"] = .bool(more) }
        if compact {
            object["form"] = .number(Double(SyncWireForm.number))
            object.merge(SyncWireForm.encode(changes)) { $1 }
        } else {
            object["changes"] = .array(changes.map(\.json))
        }
        return .object(object)
    }

    /// The request from its JSON; `SyncError` names the first thing wrong.
    public init(json: JSONValue) throws(SyncError) {
        guard let object = json.objectValue else { throw .invalidRequest("must be a JSON object") }
        let compact: Bool
        switch object["form"] {
        case nil, .number(1)?: compact = false
        case .number(Double(SyncWireForm.number))?: compact = true
        case .number(2)?: throw .invalidRequest("is in form 2, a protocol of an older stackday: update stackday on this device to sync with this server")
        default: throw .invalidRequest("needs \"form\" to be 1 (a change is an object) or \(SyncWireForm.number) (the compact form)")
        }
        // `history` is what devices from before server identities sent; it is read and ignored.
        let members = ["device", "since", "changes", "limit", "form", "history", "previous", "epoch", "full", "written", "mark", "more"] + (compact ? ["devices", "fields"] : [])
        if let unknown = object.keys.sorted().first(where: { !members.contains($0) }) {
            throw .invalidRequest("has an unknown member \"\(unknown)\"")
        }
        guard let device = object["device"]?.stringValue, SyncDevice.isValid(device) else {
            throw .invalidRequest("needs \"device\", \(SyncDevice.rule)")
        }
        guard device != SyncRules.serverDevice else { throw .invalidRequest("names the server's own device") }
        let since = try Self.integer(object["since"], "since", in: 0...(Int64(1) << 53), default: 0)
        let limit = try Self.integer(object["limit"], "limit", in: 0...Int64(Self.maxChanges), default: Int64(Self.maxChanges))
        var epoch: String?
        switch object["epoch"] {
        case nil: epoch = nil
        case .string(let text)? where (1...64).contains(text.utf8.count): epoch = text
        default: throw .invalidRequest("needs \"epoch\" to be the server's epoch the device knows (1 to 64 characters)")
        }
        let full: Bool
        switch object["full"] {
        case nil: full = false
        case .bool(let value)?: full = value
        default: throw .invalidRequest("needs \"full\" to be true or false")
        }
        var previous: String?
        switch object["previous"] {
        case nil: previous = nil
        case .string(let id)? where SyncDevice.isValid(id) && id != SyncRules.serverDevice && id != device: previous = id
        default: throw .invalidRequest("needs \"previous\" to be the device id this store used before, \(SyncDevice.rule), not this one")
        }
        let written = try object["written"].map { value throws(SyncError) in
            try Self.integer(value, "written", in: 0...(Int64(1) << 53), default: 0)
        }
        var mark: String?
        switch object["mark"] {
        case nil: mark = nil
        case .string(let text)? where Self.isMark(text): mark = text
        default: throw .invalidRequest("needs \"mark\" to be the server's mark of the position it asks from (1 to 64 letters, digits and dashes)")
        }
        var more: Bool?
        switch object["more"] {
        case nil: more = nil
        case .bool(let value)?: more = value
        default: throw .invalidRequest("needs \"more\" to be true or false")
        }
        let items: [JSONValue]
        switch object["changes"] {
        case nil where !compact: items = []
        case .array(let array)?: items = array
        default: throw .invalidRequest("needs \"changes\" to be an array")
        }
        guard items.count <= Self.maxChanges else { throw .invalidRequest("has \(items.count) changes; at most \(Self.maxChanges) go in one request") }
        var changes: [SyncChange] = []
        if compact {
            changes = try SyncWireForm.decode(object)
        } else {
            for (index, item) in items.enumerated() { changes.append(try SyncChange(json: item, index: index)) }
        }
        self.init(device: device, since: since, changes: changes, limit: Int(limit), compact: compact, epoch: epoch, full: full,
                  previous: previous, written: written, mark: mark, more: more)
    }

    static func integer(_ value: JSONValue?, _ name: String, in range: ClosedRange<Int64>, default fallback: Int64) throws(SyncError) -> Int64 {
        guard let value else { return fallback }
        guard let number = value.numberValue, number.rounded() == number, number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            throw .invalidRequest("needs \"\(name)\" to be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return Int64(number)
    }
}
