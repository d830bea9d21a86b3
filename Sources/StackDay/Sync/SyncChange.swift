/// One entity as a replica holds it now: its row's fields, or nil when it was deleted (a
/// tombstone), with the stamp of the write that made it so.
///
/// A change carries state, not an operation: applying one twice, or an older one after a newer,
/// changes nothing (`SyncRepository.apply`).
public struct SyncChange: Sendable, Hashable {
    public let kind: SyncKind
    /// The entity's id: a script's SHA-256, a habit's, record's or skip's UUID, a revision's
    /// `HABIT-UUID/NUMBER`.
    public let key: String
    public let stamp: SyncStamp
    /// The row's columns (text, numbers, null), without the owner; nil for a deleted entity.
    public let fields: [String: JSONValue]?
    /// A habit's: the stamp of the write that last changed each of its fields (`SyncRules.habitFields`),
    /// for the fields changed since it was made.
    public let fieldStamps: [String: SyncStamp]
    /// The change's place in the log of the device that made it: with the device, what the change
    /// is known by (a push sent again is recognised change by change). Sent with a device's own
    /// changes; nil for another's.
    public let seq: Int64?

    public init(kind: SyncKind, key: String, stamp: SyncStamp, fields: [String: JSONValue]?, fieldStamps: [String: SyncStamp] = [:], seq: Int64? = nil) {
        self.kind = kind
        self.key = key
        self.stamp = stamp
        self.fields = fields
        self.fieldStamps = fieldStamps
        self.seq = seq
    }

    /// The same change known by its place in its device's log.
    public func at(seq: Int64?) -> SyncChange {
        SyncChange(kind: kind, key: key, stamp: stamp, fields: fields, fieldStamps: fieldStamps, seq: seq)
    }

    /// What a server keeps of a change it took from a device, to tell the same change sent again
    /// from another under the same (device, seq): its kind, key and time, hashed (FNV-1a, 64 bits).
    public var fingerprint: Int64 {
        var hash = FNV1a()
        hash.combine("\(kind.rawValue)/\(key)/\(stamp.hlc)".utf8)
        return Int64(bitPattern: hash.value)
    }

    public var deleted: Bool { fields == nil }

    /// The change as the protocol sends it. The time is a string: it does not fit a double.
    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "kind": .string(kind.rawValue), "key": .string(key), "hlc": .string(String(stamp.hlc)), "device": .string(stamp.device),
        ]
        if let fields { object["row"] = .object(fields) } else { object["deleted"] = .bool(true) }
        if let seq { object["seq"] = .string(String(seq)) }
        if !fieldStamps.isEmpty {
            object["stamps"] = .object(fieldStamps.mapValues { .object(["hlc": .string(String($0.hlc)), "device": .string($0.device)]) })
        }
        return .object(object)
    }

    /// A change from the protocol's JSON; `SyncError.invalidChange` names what is wrong.
    public init(json: JSONValue, index: Int) throws(SyncError) {
        guard let object = json.objectValue else { throw .invalidChange(index: index, reason: "is not an object") }
        if let unknown = object.keys.first(where: { !["kind", "key", "hlc", "device", "row", "deleted", "stamps", "seq"].contains($0) }) {
            throw .invalidChange(index: index, reason: "has an unknown member \"\(unknown)\"")
        }
        var stamps: [String: (hlc: JSONValue?, device: JSONValue?)]?
        var stampsAreObject = true
        switch object["stamps"] {
        case nil: stamps = nil
        case .object(let items)?: stamps = items.mapValues { ($0.objectValue?["hlc"], $0.objectValue?["device"]) }
        default: stampsAreObject = false
        }
        try self.init(kind: object["kind"], key: object["key"], hlc: object["hlc"], device: object["device"], row: object["row"],
                      deleted: object["deleted"], stamps: stamps, stampsAreObject: stampsAreObject, seq: object["seq"], index: index)
    }

    /// A change from its members as either wire form carries them (`init(json:index:)`, and
    /// `SyncWireForm`'s arrays), checked one rule at a time in one place.
    init(kind kindValue: JSONValue?, key keyValue: JSONValue?, hlc hlcValue: JSONValue?, device deviceValue: JSONValue?, row: JSONValue?,
         deleted: JSONValue?, stamps: [String: (hlc: JSONValue?, device: JSONValue?)]?, stampsAreObject: Bool = true, seq seqValue: JSONValue?,
         index: Int) throws(SyncError) {
        func fail(_ reason: String) -> SyncError { .invalidChange(index: index, reason: reason) }
        guard let kindText = kindValue?.stringValue, let kind = SyncKind(rawValue: kindText) else {
            throw fail("needs \"kind\": one of \(SyncKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let key = keyValue?.stringValue, (1...128).contains(key.utf8.count) else { throw fail("needs \"key\", a string of 1 to 128 bytes") }
        guard let hlcText = hlcValue?.stringValue, let hlc = Int64(hlcText), hlc >= 0 else { throw fail("needs \"hlc\", a non-negative integer as a string") }
        guard let device = deviceValue?.stringValue, SyncDevice.isValid(device) else { throw fail("needs \"device\", \(SyncDevice.rule)") }
        let fields: [String: JSONValue]?
        switch (row, deleted) {
        case (.object(let row)?, nil), (.object(let row)?, .bool(false)?): fields = row
        case (nil, .bool(true)?): fields = nil
        default: throw fail("needs either \"row\", an object, or \"deleted\": true")
        }
        var fieldStamps: [String: SyncStamp] = [:]
        guard stampsAreObject, stamps == nil || kind == .habit else {
            throw fail("has \"stamps\", which only a habit's change carries, as an object")
        }
        for (field, stamp) in stamps ?? [:] {
            guard SyncRules.habitFields.contains(field), let text = stamp.hlc?.stringValue, let time = Int64(text), time >= 0,
                  let by = stamp.device?.stringValue, SyncDevice.isValid(by) else {
                throw fail("has a bad field stamp \"\(field)\": {\"hlc\": \"N\", \"device\": \"…\"} for one of \(SyncRules.habitFields.joined(separator: ", "))")
            }
            fieldStamps[field] = SyncStamp(hlc: time, device: by)
        }
        var seq: Int64?
        switch seqValue {
        case nil: seq = nil
        case .string(let text)? where Int64(text).map({ $0 >= 1 }) == true: seq = Int64(text)
        default: throw fail("has \"seq\" that is not a position of its device's log (a whole number of at least 1, as a string)")
        }
        self.init(kind: kind, key: key, stamp: SyncStamp(hlc: hlc, device: device), fields: fields, fieldStamps: fieldStamps, seq: seq)
    }
}
