/// One entity as a replica holds it now: the entity, or nil when it was deleted (a tombstone),
/// with the stamp of the write that made it so.
///
/// A change carries state, not an operation: applying one twice, or an older one after a newer,
/// changes nothing (`SyncRepository.apply`).
public struct SyncChange: Sendable, Hashable {
    public let kind: SyncKind
    /// The entity's key (`SyncEntityValue.key`).
    public let key: String
    public let stamp: SyncStamp
    /// The entity; nil for a deleted one.
    public let entity: SyncEntity?
    /// A habit's: the stamp of the write that last changed each of its fields, for the fields
    /// changed since it was made.
    public let fieldStamps: [SyncHabitField: SyncStamp]
    /// The change's place in the log of the device that made it: with the device, what the change
    /// is known by (a push sent again is recognised change by change). Sent with a device's own
    /// changes; nil for another's.
    public let seq: Int64?

    /// A live entity's change.
    public init(_ entity: SyncEntity, stamp: SyncStamp, fieldStamps: [SyncHabitField: SyncStamp] = [:], seq: Int64? = nil) {
        self.init(kind: entity.kind, key: entity.key, stamp: stamp, entity: entity, fieldStamps: fieldStamps, seq: seq)
    }

    /// A tombstone's change.
    public static func deletion(_ kind: SyncKind, key: String, stamp: SyncStamp, seq: Int64? = nil) -> SyncChange {
        SyncChange(kind: kind, key: key, stamp: stamp, entity: nil, seq: seq)
    }

    init(kind: SyncKind, key: String, stamp: SyncStamp, entity: SyncEntity?, fieldStamps: [SyncHabitField: SyncStamp] = [:], seq: Int64? = nil) {
        self.kind = kind
        self.key = key
        self.stamp = stamp
        self.entity = entity
        self.fieldStamps = fieldStamps
        self.seq = seq
    }

    /// What a server keeps of a change it took from a device, to tell the same change sent again
    /// from another under the same (device, seq): its kind, key and time, hashed (FNV-1a, 64 bits).
    public var fingerprint: Int64 {
        // The bytes of "KIND/KEY/HLC", fed without making the text (a push fingerprints each change).
        let slash = CollectionOfOne(UInt8(ascii: "/"))
        var hash = FNV1a()
        hash.combine(kind.rawValue.utf8)
        hash.combine(slash)
        hash.combine(key.utf8)
        hash.combine(slash)
        hash.combine(decimal: stamp.hlc)
        return Int64(bitPattern: hash.value)
    }

    public var deleted: Bool { entity == nil }

    /// The habit the change belongs to (nil for a script or a group's; a habit's own key for a
    /// habit). A revision's deletion names it by its key.
    public var habit: String? {
        if let entity { return entity.habit }
        switch kind {
        case .script, .completion, .skip, .group, .groupRevision: return nil
        case .habit: return key
        case .revision: return SyncRules.revision(key)?.habit
        }
    }

    /// The change as the protocol sends it (form 1). The time is a string: it does not fit a double.
    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "kind": .string(kind.rawValue), "key": .string(key), "hlc": .string(String(stamp.hlc)), "device": .string(stamp.device),
        ]
        if let entity { object["row"] = .object(entity.object) } else { object["deleted"] = .bool(true) }
        if let seq { object["seq"] = .string(String(seq)) }
        if !fieldStamps.isEmpty {
            object["stamps"] = .object(Dictionary(uniqueKeysWithValues: fieldStamps.map { field, stamp in
                (field.rawValue, JSONValue.object(["hlc": .string(String(stamp.hlc)), "device": .string(stamp.device)]))
            }))
        }
        return .object(object)
    }

    /// A change from the protocol's JSON (form 1); `SyncError.invalidChange` names what is wrong.
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
        let kind = object["kind"]?.stringValue.flatMap(SyncKind.init(rawValue:))
        var values: [JSONValue?]?
        switch (object["row"], kind) {
        case (.object(let row)?, let kind?):
            let fields = SyncEntity.fieldValues(kind, object: row)
            if let unknown = fields.unknown {
                throw .invalidChange(index: index, reason: "has a \(kind.rawValue) field it cannot have: \"\(unknown)\"")
            }
            values = fields.values
        case (nil, _), (_, nil): values = nil
        default: throw .invalidChange(index: index, reason: "needs either \"row\", an object, or \"deleted\": true")
        }
        try self.init(kind: object["kind"], key: object["key"], hlc: object["hlc"], device: object["device"], values: values,
                      rowGiven: object["row"] != nil, deleted: object["deleted"], stamps: stamps, stampsAreObject: stampsAreObject,
                      seq: object["seq"], index: index)
    }

    /// A change from its members as either wire form carries them (`init(json:index:)`, and
    /// `SyncWireForm`'s arrays), checked one rule at a time in one place: `values` are the row's in
    /// its kind's field order, nil for a deletion.
    init(kind kindValue: JSONValue?, key keyValue: JSONValue?, hlc hlcValue: JSONValue?, device deviceValue: JSONValue?, values: [JSONValue?]?,
         rowGiven: Bool, deleted: JSONValue?, stamps: [String: (hlc: JSONValue?, device: JSONValue?)]?, stampsAreObject: Bool = true,
         seq seqValue: JSONValue?, index: Int) throws(SyncError) {
        func fail(_ reason: String) -> SyncError { .invalidChange(index: index, reason: reason) }
        guard let kindText = kindValue?.stringValue, let kind = SyncKind(rawValue: kindText) else {
            throw fail("needs \"kind\": one of \(SyncKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let hlcText = hlcValue?.stringValue, let hlc = Int64(hlcText), hlc >= 0 else { throw fail("needs \"hlc\", a non-negative integer as a string") }
        guard let device = deviceValue?.stringValue, SyncDevice.isValid(device) else { throw fail("needs \"device\", \(SyncDevice.rule)") }
        var entity: SyncEntity?
        switch (rowGiven, values, deleted) {
        case (true, let values?, nil), (true, let values?, .bool(false)?):
            switch SyncEntity.decode(kind, values) {
            case .success(let decoded): entity = decoded
            case .failure(let problem): throw fail("\(kind.rawValue) field \"\(problem.field)\" \(problem.reason)")
            }
        case (false, nil, .bool(true)?): entity = nil
        default: throw fail("needs either \"row\", an object, or \"deleted\": true")
        }
        let key: String
        if let entity {
            // A row names its own key; a key sent beside it must be the same.
            if let given = keyValue, given.stringValue != entity.key { throw fail("has a key that is not its row's") }
            key = entity.key
        } else {
            guard let given = keyValue?.stringValue, (1...128).contains(given.utf8.count) else { throw fail("needs \"key\", a string of 1 to 128 bytes") }
            key = given
        }
        var fieldStamps: [SyncHabitField: SyncStamp] = [:]
        guard stampsAreObject, stamps == nil || kind == .habit else {
            throw fail("has \"stamps\", which only a habit's change carries, as an object")
        }
        for (name, stamp) in stamps ?? [:] {
            guard let field = SyncHabitField(rawValue: name), let text = stamp.hlc?.stringValue, let time = Int64(text), time >= 0,
                  let by = stamp.device?.stringValue, SyncDevice.isValid(by) else {
                throw fail("has a bad field stamp \"\(name)\": {\"hlc\": \"N\", \"device\": \"…\"} for one of \(SyncHabitField.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            fieldStamps[field] = SyncStamp(hlc: time, device: by)
        }
        var seq: Int64?
        switch seqValue {
        case nil: seq = nil
        case .string(let text)? where Int64(text).map({ $0 >= 1 }) == true: seq = Int64(text)
        default: throw fail("has \"seq\" that is not a position of its device's log (a whole number of at least 1, as a string)")
        }
        self.init(kind: kind, key: key, stamp: SyncStamp(hlc: hlc, device: device), entity: entity, fieldStamps: fieldStamps, seq: seq)
    }
}
