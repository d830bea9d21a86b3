import StackDay

/// What a policy file declares about itself.
public struct PolicyInfo: Sendable {
    /// The roles it can serve, from the functions it defines.
    public let roles: Set<PolicyRole>
    public let description: String
    /// The default parameters (`params`).
    public let defaults: [String: JSONValue]
    /// The `examples` list, each a table the checker understands.
    public let examples: [JSONValue]
    /// The optional `schema` table: parameter name → `{type, required, enum, minimum, maximum,
    /// minItems, items, description}`.
    public let schema: [String: JSONValue]
    /// The optional `tests` list: cases of the same shapes as `examples`, which `policy test` runs
    /// and installing does not.
    public let tests: [JSONValue]

    public init(roles: Set<PolicyRole>, description: String, defaults: [String: JSONValue], examples: [JSONValue], schema: [String: JSONValue] = [:],
                tests: [JSONValue] = []) {
        self.roles = roles
        self.description = description
        self.defaults = defaults
        self.examples = examples
        self.schema = schema
        self.tests = tests
    }

    /// The parameters the policy takes: its defaults completed by its schema.
    public var parameterSchema: PolicyParameterSchema { PolicyParameterSchema(defaults: defaults, declared: schema) }

    /// What a policy declared, from the JSON text the host's `describe` gives; throws
    /// `PolicyError` when it cannot be read.
    public init(describing json: String, policy: String, file: String?) throws {
        guard let object = try? JSONValue(parsing: json).objectValue else {
            throw PolicyError(policy: policy, file: file, line: nil, kind: .script, message: "cannot read what the policy declares")
        }
        var roles = Set<PolicyRole>()
        if case .array(let names)? = object["roles"] {
            for case .string(let name) in names { if let role = PolicyRole(rawValue: name) { roles.insert(role) } }
        }
        var description = ""
        if case .string(let text)? = object["description"] { description = text }
        var examples: [JSONValue] = []
        if case .array(let items)? = object["examples"] { examples = items }
        var tests: [JSONValue] = []
        if case .array(let items)? = object["tests"] { tests = items }
        self.init(roles: roles, description: description, defaults: object["params"]?.objectValue ?? [:], examples: examples,
                  schema: object["schema"]?.objectValue ?? [:], tests: tests)
    }
}
