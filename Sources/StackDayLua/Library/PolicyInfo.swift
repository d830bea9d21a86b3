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
}
