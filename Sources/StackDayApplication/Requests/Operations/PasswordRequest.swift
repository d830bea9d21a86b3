import StackDay

/// `PUT /v1/settings/password`: the new password, and the current one once there is one.
public struct PasswordRequest: RequestType {
    public static let old = RequestField<String>.text("old", help: "The current password (once there is one).")
    public static let new = RequestField<String>.text("new", help: "The new password.", schema: [
        "minLength": .number(Double(PasswordRules.minimum)), "maxLength": .number(Double(PasswordRules.maximum)),
    ]).required
    public static let fields = [old.declaration, new.declaration]

    public var old: String?
    public var new: String

    public init(_ fields: RequestFields) throws {
        new = try fields.required(Self.new)
        old = try fields[Self.old]
    }
}
