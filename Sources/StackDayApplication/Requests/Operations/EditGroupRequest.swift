import StackDay

/// `group edit`, `PATCH /v1/groups/{name}`: new rules from a day (`GroupRuleFields`), and over
/// HTTP a new name (the command line's `group rename`).
public struct EditGroupRequest: RequestType {
    public static let name = RequestField<String>.text("name", help: "A new name for the group.").httpOnly
    public static let fields = [name.declaration] + GroupRuleFields.fields

    public var name: String?
    public var rules: GroupRuleFields
    public var naming: FieldNaming

    public init(name: String? = nil, _ fields: RequestFields) throws {
        self.name = try name ?? fields[Self.name]
        rules = try GroupRuleFields(fields)
        naming = fields.naming
    }

    public init(_ fields: RequestFields) throws {
        try self.init(name: nil, fields)
    }
}
