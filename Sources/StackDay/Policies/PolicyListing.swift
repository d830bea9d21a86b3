/// A policy a habit can name, as forms offer it: its name, the roles it serves, what it does,
/// and the parameters it takes.
public struct PolicyListing: Sendable, Equatable {
    public let name: String
    public let roles: Set<PolicyRole>
    public let description: String
    public let schema: PolicyParameterSchema

    public init(name: String, roles: Set<PolicyRole>, description: String, schema: PolicyParameterSchema) {
        self.name = name
        self.roles = roles
        self.description = description
        self.schema = schema
    }
}
