/// The compact form of a list of changes on the wire (`"form": 3` in a sync request, and in the
/// answer to one): each kind's field names once, each device's id once, and each change as an
/// array, `[kind, hlc, device, row, key, stamps, seq]`:
///
/// - `device` is an index into `"devices"`;
/// - `row` is the entity's values in `"fields"[kind]`'s order, or null for a deletion;
/// - `key` is present only for a deletion (a row names its own key);
/// - `stamps` (a habit's field stamps) is `{"field": [hlc, device]}`, present only when it has some;
/// - `seq` (the change's place in its device's log, `SyncChange.seq`) is present only on a
///   device's own changes; `key` and `stamps` are null before it when they are not there.
///
/// A change in this form reads into the same `SyncChange` as in the object form, through the same
/// checks, so a server takes either; a request in the object form is answered in it.
public enum SyncWireForm {
    /// The form's number in a request's `"form"`.
    public static let number = 3

    /// The members a page in this form adds: `devices`, `fields` and `changes`.
    public static func encode(_ changes: [SyncChange]) -> [String: JSONValue] {
        var devices: [String] = []
        var index: [String: Int] = [:]
        func device(_ id: String) -> JSONValue {
            if let known = index[id] { return .number(Double(known)) }
            index[id] = devices.count
            devices.append(id)
            return .number(Double(devices.count - 1))
        }
        var fields: [String: JSONValue] = [:]
        let items: [JSONValue] = changes.map { change in
            if fields[change.kind.rawValue] == nil { fields[change.kind.rawValue] = .array(SyncEntity.fieldNames(change.kind).map(JSONValue.string)) }
            var item: [JSONValue] = [.string(change.kind.rawValue), .string(String(change.stamp.hlc)), device(change.stamp.device)]
            item.append(change.entity.map { .array($0.values) } ?? .null)
            if change.deleted || !change.fieldStamps.isEmpty || change.seq != nil { item.append(change.deleted ? .string(change.key) : .null) }
            if !change.fieldStamps.isEmpty || change.seq != nil {
                item.append(change.fieldStamps.isEmpty ? .null : .object(Dictionary(uniqueKeysWithValues: change.fieldStamps.map { field, stamp in
                    (field.rawValue, JSONValue.array([.string(String(stamp.hlc)), device(stamp.device)]))
                })))
            }
            if let seq = change.seq { item.append(.string(String(seq))) }
            return .array(item)
        }
        return ["devices": .array(devices.map(JSONValue.string)), "fields": .object(fields), "changes": .array(items)]
    }

    /// The changes of a page in this form; `SyncError.invalidChange` names the first one wrong, and
    /// `invalidRequest` a page whose `devices` or `fields` are not this form's.
    public static func decode(_ page: [String: JSONValue]) throws(SyncError) -> [SyncChange] {
        guard case .array(let deviceItems)? = page["devices"], case .object(let fieldItems)? = page["fields"],
              case .array(let items)? = page["changes"] else {
            throw .invalidRequest("in form \(number) needs \"devices\" (an array), \"fields\" (an object) and \"changes\" (an array)")
        }
        let devices = deviceItems.map { $0.stringValue }
        var counts: [SyncKind: Int] = [:]
        for (kindText, names) in fieldItems {
            guard let kind = SyncKind(rawValue: kindText) else { throw .invalidRequest("names fields of an unknown kind \"\(kindText)\"") }
            let expected = SyncEntity.fieldNames(kind)
            let rules = SyncEntity.rules(kind)
            // A device from before a field was added names the fields it knows: a prefix of
            // these, the rest of which may be absent (their defaults stand in).
            guard let given = names.arrayValue?.map(\.stringValue), given.count <= expected.count,
                  given == expected.prefix(given.count).map(Optional.some), rules.dropFirst(given.count).allSatisfy(\.mayBeAbsent) else {
                throw .invalidRequest("needs \"fields\".\(kindText) to be \(expected)")
            }
            counts[kind] = given.count
        }
        var changes: [SyncChange] = []
        changes.reserveCapacity(items.count)
        for (position, item) in items.enumerated() {
            func fail(_ reason: String) -> SyncError { .invalidChange(index: position, reason: reason) }
            guard let parts = item.arrayValue, (4...7).contains(parts.count) else { throw fail("is not [kind, hlc, device, row, key, stamps, seq]") }
            func device(_ value: JSONValue) throws(SyncError) -> JSONValue {
                guard let number = value.numberValue, number >= 0, number.rounded() == number, Int(number) < devices.count,
                      let id = devices[Int(number)] else { throw fail("names no device of \"devices\"") }
                return .string(id)
            }
            guard let kindText = parts[0].stringValue, let kind = SyncKind(rawValue: kindText) else {
                throw fail("needs a kind: one of \(SyncKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let by = try device(parts[2])
            var key: JSONValue?, row: [JSONValue?]?, deleted: JSONValue?
            switch parts[3] {
            case .null:
                deleted = .bool(true)
                guard parts.count >= 5, parts[4].stringValue != nil else { throw fail("is a deletion without its key") }
                key = parts[4]
            case .array(let values):
                guard let count = counts[kind], count == values.count else { throw fail("has a row that is not \"fields\".\(kindText)") }
                // Element by element: an array's conversion to optionals casts each one dynamically.
                row = values.map { value -> JSONValue? in value }
            default:
                throw fail("needs a row (an array) or null")
            }
            var stamps: [String: (hlc: JSONValue?, device: JSONValue?)]?
            if parts.count >= 6, parts[5] != .null {
                guard case .object(let items) = parts[5] else { throw fail("has stamps that are not an object") }
                var named: [String: (hlc: JSONValue?, device: JSONValue?)] = [:]
                for (field, stamp) in items {
                    guard let pair = stamp.arrayValue, pair.count == 2 else { throw fail("has a bad field stamp \"\(field)\": [hlc, device]") }
                    named[field] = (pair[0], try device(pair[1]))
                }
                stamps = named
            }
            changes.append(try SyncChange(kind: parts[0], key: key, hlc: parts[1], device: by, values: row, rowGiven: row != nil, deleted: deleted,
                                          stamps: stamps, seq: parts.count == 7 ? parts[6] : nil, index: position))
        }
        return changes
    }
}
