/// One field of a synced entity, declared once: its name on the wire, the rule its value is
/// checked by, and how it is read from and written to the entity. The wire's encoder and decoder
/// and each store's codec (which pairs the field with a column) are made from these declarations.
public struct SyncField<Entity>: Sendable {
    /// The field's name in a change on the wire (`startedOn`): the protocol's, never a store's.
    public let name: String
    public let value: SyncValue
    let read: @Sendable (Entity) -> JSONValue
    /// Sets the field from a value its rule accepts (nil when a device left it out).
    let write: @Sendable (inout Entity, JSONValue?) -> Void

    init(_ name: String, _ value: SyncValue, read: @escaping @Sendable (Entity) -> JSONValue, write: @escaping @Sendable (inout Entity, JSONValue?) -> Void) {
        self.name = name
        self.value = value
        self.read = read
        self.write = write
    }

    /// The field's value in `entity`, as the wire carries it.
    public func value(in entity: Entity) -> JSONValue { read(entity) }

    static func text(_ name: String, _ value: SyncValue, _ path: WritableKeyPath<Entity, String> & Sendable) -> SyncField {
        SyncField(name, value, read: { .string($0[keyPath: path]) }, write: { $0[keyPath: path] = $1?.stringValue ?? "" })
    }

    static func optionalText(_ name: String, _ value: SyncValue, _ path: WritableKeyPath<Entity, String?> & Sendable) -> SyncField {
        SyncField(name, value, read: { $0[keyPath: path].map(JSONValue.string) ?? .null }, write: { $0[keyPath: path] = $1?.stringValue })
    }

    static func day(_ name: String, _ path: WritableKeyPath<Entity, LocalDay> & Sendable) -> SyncField {
        SyncField(name, .day, read: { .string($0[keyPath: path].iso) }, write: { entity, json in
            if let day = json?.stringValue.flatMap(LocalDay.init) { entity[keyPath: path] = day }
        })
    }

    static func optionalDay(_ name: String, _ path: WritableKeyPath<Entity, LocalDay?> & Sendable) -> SyncField {
        SyncField(name, .optionalDay, read: { $0[keyPath: path].map { .string($0.iso) } ?? .null },
                  write: { $0[keyPath: path] = $1?.stringValue.flatMap(LocalDay.init) })
    }

    static func instant(_ name: String, _ path: WritableKeyPath<Entity, Double> & Sendable) -> SyncField {
        SyncField(name, .instant, read: { .number($0[keyPath: path]) }, write: { $0[keyPath: path] = $1?.numberValue ?? 0 })
    }

    /// A whole number; `absent` stands in for a value left out or null.
    static func integer(_ name: String, _ value: SyncValue, _ path: WritableKeyPath<Entity, Int64> & Sendable, absent: Int64 = 0) -> SyncField {
        SyncField(name, value, read: { .number(Double($0[keyPath: path])) }, write: { $0[keyPath: path] = $1?.numberValue.map { Int64($0) } ?? absent })
    }

    static func optionalInteger(_ name: String, _ value: SyncValue, _ path: WritableKeyPath<Entity, Int64?> & Sendable) -> SyncField {
        SyncField(name, value, read: { $0[keyPath: path].map { .number(Double($0)) } ?? .null },
                  write: { $0[keyPath: path] = $1?.numberValue.map { Int64($0) } })
    }

    static func flag(_ name: String, _ path: WritableKeyPath<Entity, Bool> & Sendable) -> SyncField {
        SyncField(name, .flag, read: { .number($0[keyPath: path] ? 1 : 0) }, write: { $0[keyPath: path] = $1?.numberValue == 1 })
    }
}
