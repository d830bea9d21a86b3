import StackDay

/// `group add`, `POST /v1/groups`: a name and the group's rules (`GroupRuleFields`).
public struct CreateGroupRequest: RequestType {
    public static let name = RequestField<String>.text("name", help: "The group's name (case-insensitive).").argument("name").required
    public static let fields = [name.declaration] + GroupRuleFields.fields

    public var name: String
    public var rules: GroupRuleFields
    public var naming: FieldNaming

    public init(_ fields: RequestFields) throws {
        guard let name = try fields[Self.name] else { throw RequestError("\(fields.label(Self.name)) is required") }
        self.name = name
        rules = try GroupRuleFields(fields)
        naming = fields.naming
    }
}
