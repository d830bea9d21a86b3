/// An entity sync carries, typed: its kind, its key, and its fields declared once
/// (`SyncField`), from which its wire form and each store's codec are made.
public protocol SyncEntityValue: Sendable, Hashable {
    static var kind: SyncKind { get }
    /// The fields in the order the wire's compact form and the stores' codecs list them; the key's
    /// first.
    static var fields: [SyncField<Self>] { get }
    /// An entity every field of which a decoding sets.
    static var blank: Self { get }
    /// What the entity is known by: a script's SHA-256, a habit's, record's or skip's UUID, a
    /// revision's `HABIT-UUID/NUMBER`.
    var key: String { get }
}

extension SyncEntityValue {
    /// Two entities are one when every field is, text byte for byte (`JSONValue`'s equality): a
    /// name in NFC and the same name in NFD are two values to sync, which must carry a rename
    /// between them, though Swift's strings call them equal.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.values == rhs.values }

    public func hash(into hasher: inout Hasher) { hasher.combine(values) }

    /// The fields' names, in `fields`' order.
    public static var fieldNames: [String] { fields.map(\.name) }

    /// The entity's values in `fields`' order.
    public var values: [JSONValue] { Self.fields.map { $0.read(self) } }

    /// The entity from values in `fields`' order, each checked by its field's rule (a value past
    /// the end is a field left out, which only a field with a default may be); the reason names
    /// the first field whose value is wrong.
    public static func decode(_ values: [JSONValue?]) -> Result<Self, SyncEntityProblem> {
        var entity = blank
        for (index, field) in fields.enumerated() {
            let value = index < values.count ? values[index] : nil
            if let problem = field.value.problem(value) {
                return .failure(SyncEntityProblem(field: field.name, reason: problem))
            }
            field.write(&entity, value)
        }
        return .success(entity)
    }

    /// The entity from values a store read, already as its rules allow.
    public static func trusted(_ values: [JSONValue?]) -> Self {
        var entity = blank
        for (index, field) in fields.enumerated() { field.write(&entity, index < values.count ? values[index] : nil) }
        return entity
    }
}
