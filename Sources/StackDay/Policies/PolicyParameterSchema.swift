/// The parameters a policy takes: each one's type, default, whether it is required, the values or
/// range it allows and a one-line description. Derived from the policy's `params` defaults (a
/// default's JSON type is the parameter's type) and completed by its optional `schema` table
/// (docs/policies.md § Parameters).
///
/// Checked when a habit's rules are written (create, edit, simulate, preview), never when stored
/// revisions are evaluated: a revision stored before a policy declared its schema keeps running
/// as pinned.
public struct PolicyParameterSchema: Sendable, Equatable {
    /// The JSON types a parameter may have.
    public enum Kind: String, Sendable, Equatable {
        case integer, number, string, boolean, array, object
    }

    /// One parameter.
    public struct Parameter: Sendable, Equatable {
        public let name: String
        public let kind: Kind?
        public let defaultValue: JSONValue?
        public let required: Bool
        public let allowed: [JSONValue]?
        public let minimum: Double?
        public let maximum: Double?
        public let minItems: Int?
        public let itemKind: Kind?
        public let itemsAllowed: [JSONValue]?
        public let description: String
        /// A value to show where one is asked for (a placeholder, a missing parameter's message):
        /// the schema's `example`, else the default.
        public let example: JSONValue?
    }

    /// The parameters, by name, sorted.
    public let parameters: [Parameter]

    /// Merges what the defaults say with the declared `schema` table (name → field table).
    public init(defaults: [String: JSONValue], declared: [String: JSONValue]) {
        var result: [Parameter] = []
        for name in Set(defaults.keys).union(declared.keys).sorted() {
            let spec = declared[name]?.objectValue ?? [:]
            let value = defaults[name]
            let items = spec["items"]?.objectValue ?? [:]
            result.append(Parameter(
                name: name,
                kind: spec["type"]?.stringValue.flatMap(Kind.init(rawValue:)) ?? value.flatMap(Self.kind(of:)),
                defaultValue: value,
                required: spec["required"] == .bool(true) && value == nil,
                allowed: spec["enum"]?.arrayValue,
                minimum: spec["minimum"]?.numberValue,
                maximum: spec["maximum"]?.numberValue,
                minItems: spec["minItems"]?.numberValue.map { Int($0) },
                itemKind: items["type"]?.stringValue.flatMap(Kind.init(rawValue:))
                    ?? (value?.arrayValue?.first).flatMap(Self.kind(of:)),
                itemsAllowed: items["enum"]?.arrayValue,
                description: spec["description"]?.stringValue ?? "",
                example: spec["example"] ?? value
            ))
        }
        parameters = result
    }

    /// The keys a parameter's `schema` entry may hold, and those of its `items`.
    static let entryKeys = ["type", "required", "enum", "minimum", "maximum", "minItems", "items", "description", "example"]
    static let itemKeys = ["type", "enum"]

    /// What is wrong with a declared `schema` table, one line each (`policy check` reports them):
    /// an entry that is not a table, a key the schema does not know (with a "did you mean"), a
    /// `type` that is no JSON type. Empty when it is sound.
    public static func problems(declared: [String: JSONValue]) -> [String] {
        var problems: [String] = []
        let kinds = ["integer", "number", "string", "boolean", "array", "object"]
        func keys(of entry: [String: JSONValue], at path: String, known: [String]) {
            for key in entry.keys.sorted() where !known.contains(key) {
                let hint = suggestion(for: key, among: known).map { "; did you mean '\($0)'?" } ?? ""
                problems.append("\(path): unknown key '\(key)' (the keys are \(known.joined(separator: ", ")))\(hint)")
            }
            if let type = entry["type"], !(type.stringValue.map(kinds.contains) ?? false) {
                problems.append("\(path).type: \(type.jsonText) is not one of \(kinds.joined(separator: ", "))")
            }
        }
        for name in declared.keys.sorted() {
            guard let entry = declared[name]?.objectValue else {
                problems.append("schema.\(name): must be a table such as { type = \"integer\", description = \"…\" }")
                continue
            }
            keys(of: entry, at: "schema.\(name)", known: entryKeys)
            if let items = entry["items"] {
                guard let table = items.objectValue else {
                    problems.append("schema.\(name).items: must be a table such as { type = \"string\" }")
                    continue
                }
                keys(of: table, at: "schema.\(name).items", known: itemKeys)
            }
        }
        return problems
    }

    /// The JSON type of a value (a whole number is an integer).
    static func kind(of value: JSONValue) -> Kind? {
        switch value {
        case .null: nil
        case .bool: .boolean
        case .number(let number): number == number.rounded() && abs(number) < 1e15 ? .integer : .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    /// Throws `PolicyParameterError` for an unknown key (with a "did you mean"), a required one
    /// missing, or a value of the wrong type or out of range; the first found, keys in order.
    public func check(_ given: [String: JSONValue], policy: String) throws(PolicyParameterError) {
        let names = parameters.map(\.name)
        for key in given.keys.sorted() where !names.contains(key) {
            throw .unknown(policy: policy, name: key, suggestion: Self.suggestion(for: key, among: names), known: names)
        }
        for parameter in parameters {
            guard let value = given[parameter.name] else {
                if parameter.required {
                    throw .missing(policy: policy, name: parameter.name, description: parameter.description, example: parameter.example)
                }
                continue
            }
            try Self.check(value, kind: parameter.kind, allowed: parameter.allowed, parameter: parameter, policy: policy, what: "'\(parameter.name)'")
            if case .array(let items) = value {
                if let minItems = parameter.minItems, items.count < minItems {
                    throw .invalid(policy: policy, name: parameter.name, reason: "needs at least \(minItems) item\(minItems == 1 ? "" : "s")")
                }
                for (index, item) in items.enumerated() {
                    try Self.check(item, kind: parameter.itemKind, allowed: parameter.itemsAllowed, parameter: nil, policy: policy,
                                   what: "'\(parameter.name)' item \(index + 1)", name: parameter.name)
                }
            }
        }
    }

    private static func check(_ value: JSONValue, kind: Kind?, allowed: [JSONValue]?, parameter: Parameter?, policy: String, what: String,
                              name: String? = nil) throws(PolicyParameterError) {
        let parameterName = name ?? parameter?.name ?? what
        if let kind {
            let actual = Self.kind(of: value)
            let fits = actual == kind || (kind == .number && actual == .integer)
            if !fits {
                throw .invalid(policy: policy, name: parameterName, reason: "\(what) must be \(Self.article(kind)), not \(Self.describe(value))")
            }
        }
        if let allowed, !allowed.contains(value) {
            throw .invalid(policy: policy, name: parameterName,
                           reason: "\(what) must be one of \(allowed.map(\.jsonText).joined(separator: ", ")), not \(value.jsonText)")
        }
        if let parameter, case .number(let number) = value {
            if let minimum = parameter.minimum, number < minimum {
                throw .invalid(policy: policy, name: parameterName, reason: "\(what) must be at least \(JSONValue.number(minimum).jsonText), not \(value.jsonText)")
            }
            if let maximum = parameter.maximum, number > maximum {
                throw .invalid(policy: policy, name: parameterName, reason: "\(what) must be at most \(JSONValue.number(maximum).jsonText), not \(value.jsonText)")
            }
        }
    }

    static func article(_ kind: Kind) -> String {
        switch kind {
        case .integer: "a whole number"
        case .number: "a number"
        case .string: "a string"
        case .boolean: "true or false"
        case .array: "a list"
        case .object: "an object"
        }
    }

    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number(let number): number == number.rounded() ? "the number \(JSONValue.number(number).jsonText)" : "the fraction \(JSONValue.number(number).jsonText)"
        case .string(let text): "the string \(JSONValue.string(text).jsonText)"
        case .array: "a list"
        case .object: "an object"
        }
    }

    /// The known name closest to `name`, for "did you mean" (`DidYouMean`).
    public static func suggestion(for name: String, among names: [String]) -> String? {
        DidYouMean.suggestion(for: name, among: names)
    }

    /// The parameters as a JSON Schema object (draft 2020-12), for forms and the API document.
    public var jsonSchema: JSONValue {
        var properties: [String: JSONValue] = [:]
        for parameter in parameters {
            var property: [String: JSONValue] = [:]
            if let kind = parameter.kind { property["type"] = .string(kind.rawValue) }
            if let value = parameter.defaultValue { property["default"] = value }
            if let allowed = parameter.allowed { property["enum"] = .array(allowed) }
            if let minimum = parameter.minimum { property["minimum"] = .number(minimum) }
            if let maximum = parameter.maximum { property["maximum"] = .number(maximum) }
            if let minItems = parameter.minItems { property["minItems"] = .number(Double(minItems)) }
            if parameter.itemKind != nil || parameter.itemsAllowed != nil {
                var items: [String: JSONValue] = [:]
                if let kind = parameter.itemKind { items["type"] = .string(kind.rawValue) }
                if let allowed = parameter.itemsAllowed { items["enum"] = .array(allowed) }
                property["items"] = .object(items)
            }
            if !parameter.description.isEmpty { property["description"] = .string(parameter.description) }
            properties[parameter.name] = .object(property)
        }
        var schema: [String: JSONValue] = ["type": .string("object"), "properties": .object(properties), "additionalProperties": .bool(false)]
        let required = parameters.filter(\.required).map { JSONValue.string($0.name) }
        if !required.isEmpty { schema["required"] = .array(required) }
        return .object(schema)
    }
}
