import StackDay

/// `POST /v1/webhooks`: where to send, and which events.
public struct CreateWebhookRequest: RequestType {
    public static let url = RequestField<String>.text("url", help: "An http:// or https:// address to POST each event to.",
                                                      schema: ["minLength": .number(1), "maxLength": .number(2000)]).required
    public static let events = RequestField<[String]>.texts(
        "events", help: "The events to send: \(WebhookEvent.names).", valueName: "event", limit: WebhookEvent.allCases.count
    ).required

    public static let format = RequestField<String>.choice(
        "format", among: WebhookFormat.hooks.map(\.rawValue),
        help: "How each event is written: json (StackDay's signed event, the default), ntfy or gotify (a title and a message, for their phone apps).")

    public static let fields = [url.declaration, events.declaration, format.declaration]

    public var url: String
    public var events: [WebhookEvent]
    public var format: WebhookFormat

    public init(_ fields: RequestFields) throws {
        url = try fields.required(Self.url)
        events = try fields.required(Self.events).map { name in
            guard let event = WebhookEvent(rawValue: name) else {
                throw RequestError("unknown event '\(name)' (use \(WebhookEvent.names))")
            }
            return event
        }
        format = try fields[Self.format].flatMap(WebhookFormat.init(rawValue:)) ?? .json
    }
}
