import StackDay

// Tests write entities as the wire's object form does: fields by their wire names. These build
// the typed values from such rows through the protocol's own decoder, so a row a test writes is
// checked exactly as one a device sends.

extension SyncChange {
    /// The change a device would send with `fields` as its row (nil: a deletion); a row the
    /// decoder refuses stops the test with its reason.
    init(kind: SyncKind, key: String, stamp: SyncStamp, fields: [String: JSONValue]?, fieldStamps: [SyncHabitField: SyncStamp] = [:], seq: Int64? = nil) {
        var object: [String: JSONValue] = ["kind": .string(kind.rawValue), "key": .string(key), "hlc": .string(String(stamp.hlc)),
                                           "device": .string(stamp.device)]
        if let fields { object["row"] = .object(fields) } else { object["deleted"] = .bool(true) }
        if let seq { object["seq"] = .string(String(seq)) }
        do {
            let decoded = try SyncChange(json: .object(object), index: 0)
            self = fieldStamps.isEmpty ? decoded : SyncChange(decoded.entity!, stamp: stamp, fieldStamps: fieldStamps, seq: seq)
        } catch {
            preconditionFailure("a test's row is refused: \(error)")
        }
    }

    /// The entity as the wire's object form carries it.
    var fields: [String: JSONValue]? { entity?.object }
}

extension SyncEntity {
    /// The entity a row of the wire's object form makes.
    init(_ kind: SyncKind, _ row: [String: JSONValue]) {
        switch SyncEntity.decode(kind, object: row) {
        case .success(let entity): self = entity
        case .failure(let problem): preconditionFailure("a test's row is refused: \(problem)")
        }
    }
}

extension SyncEntityValue {
    /// A field's value by its wire name.
    subscript(_ name: String) -> JSONValue? { Self.fields.first { $0.name == name }?.value(in: self) }
}

/// A habit field by its wire name in a test's table.
extension SyncHabitField: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        guard let field = SyncHabitField(rawValue: value) else { preconditionFailure("no habit field \(value)") }
        self = field
    }
}
