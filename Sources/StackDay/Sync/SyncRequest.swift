/// `POST /v1/sync`'s body: the device, the server position it pulled through, the changes it has
/// not pushed (at most `maxChanges`), and how many of the server's it wants back.
public struct SyncRequest: Sendable {
    public static let maxChanges = 500

    public let device: String
    public let since: Int64
    public let changes: [SyncChange]
    public let limit: Int

    public init(device: String, since: Int64, changes: [SyncChange], limit: Int = SyncRequest.maxChanges) {
        self.device = device
        self.since = since
        self.changes = changes
        self.limit = limit
    }

    public var json: JSONValue {
        .object(["device": .string(device), "since": .number(Double(since)), "changes": .array(changes.map(\.json)), "limit": .number(Double(limit))])
    }

    /// The request from its JSON; `SyncError` names the first thing wrong.
    public init(json: JSONValue) throws(SyncError) {
        guard let object = json.objectValue else { throw .invalidRequest("must be a JSON object") }
        if let unknown = object.keys.sorted().first(where: { !["device", "since", "changes", "limit"].contains($0) }) {
            throw .invalidRequest("has an unknown member \"\(unknown)\"")
        }
        guard let device = object["device"]?.stringValue, SyncDevice.isValid(device) else {
            throw .invalidRequest("needs \"device\", \(SyncDevice.rule)")
        }
        guard device != SyncRules.serverDevice else { throw .invalidRequest("names the server's own device") }
        let since = try Self.integer(object["since"], "since", in: 0...(Int64(1) << 53), default: 0)
        let limit = try Self.integer(object["limit"], "limit", in: 0...Int64(Self.maxChanges), default: Int64(Self.maxChanges))
        let items: [JSONValue]
        switch object["changes"] {
        case nil: items = []
        case .array(let array)?: items = array
        default: throw .invalidRequest("needs \"changes\" to be an array")
        }
        guard items.count <= Self.maxChanges else { throw .invalidRequest("has \(items.count) changes; at most \(Self.maxChanges) go in one request") }
        var changes: [SyncChange] = []
        for (index, item) in items.enumerated() { changes.append(try SyncChange(json: item, index: index)) }
        self.init(device: device, since: since, changes: changes, limit: Int(limit))
    }

    static func integer(_ value: JSONValue?, _ name: String, in range: ClosedRange<Int64>, default fallback: Int64) throws(SyncError) -> Int64 {
        guard let value else { return fallback }
        guard let number = value.numberValue, number.rounded() == number, number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            throw .invalidRequest("needs \"\(name)\" to be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return Int64(number)
    }
}
