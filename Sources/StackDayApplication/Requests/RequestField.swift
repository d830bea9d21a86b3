import Foundation
import StackDay
import StackDayExchange

/// One typed field of a request: its declaration and how its value is read from whatever a
/// surface sent (`RequestFields`). Request types declare theirs as static constants and read them
/// with `fields[Self.goal]`, so no operation reads a field by a string of its own.
public struct RequestField<Value: Sendable>: Sendable {
    public let declaration: FieldDeclaration
    let read: @Sendable (RequestFields, String) throws -> Value?

    public init(_ declaration: FieldDeclaration, read: @escaping @Sendable (RequestFields, String) throws -> Value?) {
        self.declaration = declaration
        self.read = read
    }

    public var key: String { declaration.key }

    /// The same field read further by `transform`, whose error (its description) becomes
    /// `invalid value for LABEL: …`.
    public func map<Other: Sendable>(_ transform: @escaping @Sendable (Value) throws -> Other) -> RequestField<Other> {
        let read = self.read
        return RequestField<Other>(declaration) { fields, key in
            guard let value = try read(fields, key) else { return nil }
            do { return try transform(value) } catch { throw fields.invalid(key, "\(error)") }
        }
    }

    /// The same field with another declaration (other help, required, on the command line otherwise).
    public func declared(_ change: (FieldDeclaration) -> FieldDeclaration) -> RequestField<Value> {
        RequestField(change(declaration), read: read)
    }

    /// The same field as the command line's positional argument `<name>`.
    public func argument(_ name: String, optional: Bool = true, variadic: Bool = false) -> RequestField<Value> {
        declared { FieldDeclaration(key: $0.key, help: $0.help, commandLine: .argument(name: name, optional: optional, variadic: variadic), schema: $0.schema,
                                    isRequired: $0.isRequired, isCommandLineOnly: $0.isCommandLineOnly) }
    }

    /// The same field, refused when absent.
    public var required: RequestField<Value> {
        declared { FieldDeclaration(key: $0.key, help: $0.help, commandLine: $0.commandLine, schema: $0.schema, isRequired: true, isCommandLineOnly: $0.isCommandLineOnly) }
    }

    /// The same field taken by the command line only (never in an HTTP request or its schema).
    public var commandLineOnly: RequestField<Value> {
        declared { FieldDeclaration(key: $0.key, help: $0.help, commandLine: $0.commandLine, schema: $0.schema, isRequired: $0.isRequired, isCommandLineOnly: true) }
    }

    /// The same field that only HTTP requests (and the web's forms) carry.
    public var httpOnly: RequestField<Value> {
        declared { FieldDeclaration(key: $0.key, help: $0.help, commandLine: .none, schema: $0.schema, isRequired: $0.isRequired, isCommandLineOnly: false) }
    }
}

extension RequestField where Value == String {
    /// Text; `schema` adds constraints (`maxLength`, `pattern`) to the API document.
    public static func text(_ key: String, help: String, valueName: String = "text", schema: [String: JSONValue] = [:]) -> RequestField {
        RequestField(FieldDeclaration(key: key, help: help, commandLine: .option(valueName: valueName),
                                      schema: .object(schema.merging(["type": .string("string")]) { $1 }))) { try $0.string($1) }
    }

    /// One of `values`; another is `invalid value for LABEL: 'x' (use a or b)`.
    public static func choice(_ key: String, among values: [String], help: String, valueName: String? = nil) -> RequestField {
        RequestField(FieldDeclaration(key: key, help: help, commandLine: .option(valueName: valueName ?? values.joined(separator: "|")),
                                      schema: ViewSchema.enumeration(values))) { fields, key in
            guard let text = try fields.string(key) else { return nil }
            guard values.contains(text) else {
                let listed = values.count == 2 ? values.joined(separator: " or ") : values.dropLast().joined(separator: ", ") + " or " + values.last!
                throw fields.invalid(key, "'\(text)' (use \(listed))")
            }
            return text
        }
    }
}

extension RequestField where Value == Double {
    /// A number; on the command line, decimal text.
    public static func number(_ key: String, help: String, valueName: String = "n") -> RequestField {
        RequestField(FieldDeclaration(key: key, help: help, commandLine: .option(valueName: valueName), schema: ViewSchema.number)) { try $0.number($1) }
    }
}

extension RequestField where Value == Int {
    /// A whole number in `range`; another is `invalid value for LABEL: 'x' is not WHAT`.
    public static func integer(_ key: String, in range: ClosedRange<Int>, what: String, help: String, valueName: String = "n") -> RequestField {
        RequestField(FieldDeclaration(key: key, help: help, commandLine: .option(valueName: valueName),
                                      schema: .object(["type": .string("integer"), "minimum": .number(Double(range.lowerBound)), "maximum": .number(Double(range.upperBound))]))) {
            try $0.integer($1, in: range, what: what)
        }
    }
}

extension RequestField where Value == Bool {
    /// A flag on the command line, a boolean in JSON, `true`/`false` in a query or a form.
    public static func flag(_ key: String, help: String) -> RequestField {
        RequestField(FieldDeclaration(key: key, help: help, commandLine: .flag, schema: ViewSchema.boolean)) { fields, key in
            fields.has(key) ? try fields.bool(key) : nil
        }
    }
}

extension RequestField where Value == LocalDay {
    /// A day, `YYYY-MM-DD`, inside 0001-01-01 … 9999-12-31.
    public static func day(_ key: String, help: String) -> RequestField {
        RequestField(FieldDeclaration(key: key, help: help, commandLine: .option(valueName: "day"), schema: ViewSchema.day)) { try $0.day($1) }
    }
}

extension RequestField where Value == Date {
    /// An instant, RFC 3339 with an offset.
    public static func instant(_ key: String, help: String) -> RequestField {
        RequestField(FieldDeclaration(key: key, help: help, commandLine: .option(valueName: "instant"),
                                      schema: .object(["type": .string("string"), "format": .string("date-time")]))) { try $0.instant($1) }
    }
}

extension RequestField where Value == [String: JSONValue] {
    /// A JSON object; on the command line, its JSON text.
    public static func object(_ key: String, help: String) -> RequestField {
        RequestField(FieldDeclaration(key: key, help: help, commandLine: .option(valueName: "json"), schema: ViewSchema.anyObject)) { try $0.object($1) }
    }
}

extension RequestField where Value == [String] {
    /// Texts: a JSON array of strings or one string; on the command line, an option given any
    /// number of times. At most `limit` in the API document.
    public static func texts(_ key: String, help: String, valueName: String, limit: Int) -> RequestField {
        let string = ViewSchema.string
        return RequestField(FieldDeclaration(key: key, help: help, commandLine: .repeatable(valueName: valueName),
                                             schema: .object(["anyOf": .array([string, .object(["type": .string("array"), "items": string, "maxItems": .number(Double(limit))])])]))) {
            try $0.strings($1)
        }
    }

    /// Every value of the command line's last positional argument `<name> ...` (the habits of `calendar`).
    public static func arguments(_ key: String, name: String, help: String) -> RequestField {
        RequestField(FieldDeclaration(key: key, help: help, commandLine: .argument(name: name, optional: false, variadic: true),
                                      schema: .object(["type": .string("array"), "items": ViewSchema.string]))) { try $0.strings($1) }
    }
}
