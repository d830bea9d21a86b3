import StackDay

/// The input of one application operation, as a value: its fields declared once (`fields`), read
/// from whatever a surface sent by `RequestFields.decode`.
///
/// A request type checks what the fields alone decide (a value's type, two fields that exclude
/// each other); the operation checks what needs the store.
public protocol RequestType: Sendable {
    /// The fields, in the order help lists them.
    static var fields: [FieldDeclaration] { get }
    /// Its name in the API document (`#/components/schemas/NAME`); by default the type's name
    /// without `Request`.
    static var schemaName: String { get }
    /// Reads the fields (`fields[Self.goal]`); the keys were already checked against `fields`.
    init(_ fields: RequestFields) throws
}

extension RequestType {
    public static var schemaName: String {
        let name = String(describing: Self.self)
        return name.hasSuffix("Request") ? String(name.dropLast("Request".count)) : name
    }

    /// The fields an HTTP request may carry (the command line's own left out).
    public static var httpFields: [FieldDeclaration] { fields.filter { !$0.isCommandLineOnly } }

    /// The JSON Schema of a body: an object of the HTTP fields, nothing else allowed.
    public static var schema: JSONValue {
        ViewSchema.object(Dictionary(uniqueKeysWithValues: httpFields.map { ($0.key, $0.schema) }),
                          required: httpFields.filter(\.isRequired).map(\.key), closed: true)
    }
}
