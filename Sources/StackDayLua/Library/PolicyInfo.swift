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

    public init(roles: Set<PolicyRole>, description: String, defaults: [String: JSONValue], examples: [JSONValue], schema: [String: JSONValue] = [:]) {
        self.roles = roles
        self.description = description
        self.defaults = defaults
        self.examples = examples
        self.schema = schema
    }

    /// The parameters the policy takes: its defaults completed by its schema.
    public var parameterSchema: PolicyParameterSchema { PolicyParameterSchema(defaults: defaults, declared: schema) }
}
