/// `POST /v1/sync`'s body: the device, the server position it pulled through, the changes it has
/// not pushed (at most `maxChanges`), and how many of the server's it wants back.
public struct SyncRequest: Sendable {
    public static let maxChanges = 2000

    public let device: String
    public let since: Int64
    public let changes: [SyncChange]
    public let limit: Int
    /// Whether the changes go in the compact form (`SyncWireForm`, `"form": 2`), in which the
    /// server answers too; else one object per change.
    public let compact: Bool
    /// The history token the server gave this device last (`SyncHistory`, `"history"`).
    public let history: String?
    /// The id this store synced under before `stackday sync --new-device` gave it a new one
    /// (`"previous"`): the server retires it and serves its changes again to every device.
    public let previous: String?

    public init(device: String, since: Int64, changes: [SyncChange], limit: Int = SyncRequest.maxChanges, compact: Bool = true,
                history: String? = nil, previous: String? = nil) {
        self.device = device
        self.since = since
        self.changes = changes
        self.limit = limit
        self.compact = compact
        self.history = history
        self.previous = previous
    }

    public var json: JSONValue {
        var object: [String: JSONValue] = ["device": .string(device), "since": .number(Double(since)), "limit": .number(Double(limit))]
        if let history { object["history"] = .string(history) }
        if let previous { object["previous"] = .string(previous) }
        if compact {
            object["form"] = .number(2)
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
        case .number(2)?: compact = true
        default: throw .invalidRequest("needs \"form\" to be 1 (a change is an object) or 2 (the compact form)")
        }
        let members = ["device", "since", "changes", "limit", "form", "history", "previous"] + (compact ? ["devices", "columns"] : [])
        if let unknown = object.keys.sorted().first(where: { !members.contains($0) }) {
            throw .invalidRequest("has an unknown member \"\(unknown)\"")
        }
        guard let device = object["device"]?.stringValue, SyncDevice.isValid(device) else {
            throw .invalidRequest("needs \"device\", \(SyncDevice.rule)")
        }
        guard device != SyncRules.serverDevice else { throw .invalidRequest("names the server's own device") }
        let since = try Self.integer(object["since"], "since", in: 0...(Int64(1) << 53), default: 0)
        let limit = try Self.integer(object["limit"], "limit", in: 0...Int64(Self.maxChanges), default: Int64(Self.maxChanges))
        var history: String?
        switch object["history"] {
        case nil: history = nil
        case .string(let token)? where (1...64).contains(token.utf8.count): history = token
        default: throw .invalidRequest("needs \"history\" to be the token the server gave (1 to 64 characters)")
        }
        var previous: String?
        switch object["previous"] {
        case nil: previous = nil
        case .string(let id)? where SyncDevice.isValid(id) && id != SyncRules.serverDevice && id != device: previous = id
        default: throw .invalidRequest("needs \"previous\" to be the device id this store used before, \(SyncDevice.rule), not this one")
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
        self.init(device: device, since: since, changes: changes, limit: Int(limit), compact: compact, history: history,
                  previous: previous)
    }

    static func integer(_ value: JSONValue?, _ name: String, in range: ClosedRange<Int64>, default fallback: Int64) throws(SyncError) -> Int64 {
        guard let value else { return fallback }
        guard let number = value.numberValue, number.rounded() == number, number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            throw .invalidRequest("needs \"\(name)\" to be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return Int64(number)
    }
}
