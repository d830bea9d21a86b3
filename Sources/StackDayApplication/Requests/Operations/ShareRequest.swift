import StackDay

/// `policy share NAME --with USER`, `POST /v1/policies/{name}/shares`: the user to share an
/// installed script with.
public struct ShareRequest: RequestType {
    public static let with = RequestField<String>.text("with", help: "The user to share it with.", valueName: "user").required
    public static let fields = [with.declaration]

    public var with: String

    public init(with user: String) {
        self.with = user
    }

    public init(_ fields: RequestFields) throws {
        with = try fields.required(Self.with)
    }
}
