import StackDay

/// `POST /v1/devices/pair`: a pairing code and the name the device goes by.
public struct PairRequest: RequestType {
    public static let code = RequestField<String>.text("code", help: "The code the settings page or POST /v1/devices/pairing made.").required
    public static let name = RequestField<String>.text("name", help: "The device's name (default: device).",
                                                      schema: ["minLength": .number(1), "maxLength": .number(64)])
    public static let fields = [code.declaration, name.declaration]

    public var code: String
    public var name: String

    public init(_ fields: RequestFields) throws {
        code = try fields.required(Self.code)
        name = try fields[Self.name] ?? "device"
    }
}
