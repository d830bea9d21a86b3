/// The compact form of a list of changes on the wire (`"form": 2` in a sync request, and in the
/// answer to one): each kind's column names once, each device's id once, and each change as an
/// array, `[kind, hlc, device, row, key, stamps, seq]`:
///
/// - `device` is an index into `"devices"`;
/// - `row` is the row's values in `"columns"[kind]`'s order, or null for a deletion;
/// - `key` is present only for a deletion (a row names its own key);
/// - `stamps` (a habit's field stamps) is `{"field": [hlc, device]}`, present only when it has some;
/// - `seq` (the change's place in its device's log, `SyncChange.seq`) is present only on a
///   device's own changes; `key` and `stamps` are null before it when they are not there.
///
/// A change in this form reads into the same `SyncChange` as in the object form, through the same
/// checks, so a server takes either; a request in the object form is answered in it.
public enum SyncWireForm {
    /// The members a page in this form adds: `devices`, `columns` and `changes`.
    public static func encode(_ changes: [SyncChange]) -> [String: JSONValue] {
        var devices: [String] = []
        var index: [String: Int] = [:]
        func device(_ id: String) -> JSONValue {
            if let known = index[id] { return .number(Double(known)) }
            index[id] = devices.count
            devices.append(id)
            return .number(Double(devices.count - 1))
        }
        var columns: [String: JSONValue] = [:]
        let items: [JSONValue] = changes.map { change in
            let names = SyncRules.columnNames(change.kind)
            columns[change.kind.rawValue] = .array(names.map(JSONValue.string))
            var item: [JSONValue] = [.string(change.kind.rawValue), .string(String(change.stamp.hlc)), device(change.stamp.device)]
            item.append(change.fields.map { fields in .array(names.map { fields[$0] ?? .null }) } ?? .null)
            if change.deleted || !change.fieldStamps.isEmpty || change.seq != nil { item.append(change.deleted ? .string(change.key) : .null) }
            if !change.fieldStamps.isEmpty || change.seq != nil {
                item.append(change.fieldStamps.isEmpty ? .null : .object(change.fieldStamps.mapValues { .array([.string(String($0.hlc)), device($0.device)]) }))
            }
            if let seq = change.seq { item.append(.string(String(seq))) }
            return .array(item)
        }
        return ["devices": .array(devices.map(JSONValue.string)), "columns": .object(columns), "changes": .array(items)]
    }

    /// The changes of a page in this form; `SyncError.invalidChange` names the first one wrong, and
    /// `invalidRequest` a page whose `devices` or `columns` are not this form's.
    public static func decode(_ page: [String: JSONValue]) throws(SyncError) -> [SyncChange] {
        guard case .array(let deviceItems)? = page["devices"], case .object(let columnItems)? = page["columns"],
              case .array(let items)? = page["changes"] else {
            throw .invalidRequest("in form 2 needs \"devices\" (an array), \"columns\" (an object) and \"changes\" (an array)")
        }
        let devices = deviceItems.map { $0.stringValue }
        var columns: [SyncKind: [String]] = [:]
        for (kindText, names) in columnItems {
            guard let kind = SyncKind(rawValue: kindText) else { throw .invalidRequest("names columns of an unknown kind \"\(kindText)\"") }
            let all = SyncRules.columns(kind)
            let expected = SyncRules.columnNames(kind)
            // A device from before a column was added names the columns it knows: a prefix of
            // these, the rest of which may be absent (the store's default stands in).
            guard let given = names.arrayValue?.map(\.stringValue), given.count <= expected.count,
                  given == expected.prefix(given.count).map(Optional.some), all.dropFirst(given.count).allSatisfy(\.mayBeAbsent) else {
                throw .invalidRequest("needs \"columns\".\(kindText) to be \(expected)")
            }
            columns[kind] = Array(expected.prefix(given.count))
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
            var key: JSONValue?, row: JSONValue?, deleted: JSONValue?
            switch parts[3] {
            case .null:
                deleted = .bool(true)
                guard parts.count >= 5, parts[4].stringValue != nil else { throw fail("is a deletion without its key") }
                key = parts[4]
            case .array(let values):
                guard let names = columns[kind], names.count == values.count else { throw fail("has a row that is not \"columns\".\(kindText)") }
                var fields: [String: JSONValue] = [:]
                fields.reserveCapacity(names.count)
                for (name, value) in zip(names, values) { fields[name] = value }
                guard let named = SyncRules.key(kind, fields) else { throw fail("has a row without its key") }
                key = .string(named)
                row = .object(fields)
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
            changes.append(try SyncChange(kind: parts[0], key: key, hlc: parts[1], device: by, row: row, deleted: deleted,
                                          stamps: stamps, seq: parts.count == 7 ? parts[6] : nil, index: position))
        }
        return changes
    }
}
