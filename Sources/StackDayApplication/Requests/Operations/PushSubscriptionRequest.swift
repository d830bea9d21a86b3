import StackDay

/// `POST /v1/push/subscriptions`: a browser's `PushSubscription` as its `toJSON()` gives it, and
/// a name for it.
public struct PushSubscriptionRequest: RequestType {
    public static let endpoint = RequestField<String>.text("endpoint", help: "The push service's URL for this browser (PushSubscription.endpoint).",
                                                           schema: ["minLength": .number(1), "maxLength": .number(2000)]).required
    public static let keys = RequestField<[String: JSONValue]>.object("keys", help: "The browser's keys: {\"p256dh\", \"auth\"}, base64url.").required
    public static let name = RequestField<String>.text("name", help: "What to call this device or browser (default: Browser).",
                                                       schema: ["maxLength": .number(Double(PushSubscription.nameLimit))])
    public static let fields = [endpoint.declaration, keys.declaration, name.declaration]

    public var endpoint: String
    public var p256dh: String
    public var auth: String
    public var name: String?

    public init(_ fields: RequestFields) throws {
        endpoint = try fields.required(Self.endpoint)
        let keys = try fields.required(Self.keys)
        guard case .string(let p256dh)? = keys["p256dh"], case .string(let auth)? = keys["auth"] else {
            throw RequestError("keys must hold p256dh and auth, each a base64url text")
        }
        if let other = keys.keys.sorted().first(where: { $0 != "p256dh" && $0 != "auth" }) {
            throw RequestError("unknown member '\(other)' in keys (p256dh and auth are taken)")
        }
        self.p256dh = p256dh
        self.auth = auth
        name = try fields[Self.name]
    }
}
