/// How a webhook's deliveries are written: StackDay's own JSON event, the forms ntfy and Gotify
/// take (so a reminder reaches their phone apps), or a Web Push message to a browser.
public enum WebhookFormat: String, Sendable, CaseIterable, Codable {
    /// StackDay's JSON event, signed (`X-StackDay-Signature`).
    case json
    /// ntfy's publish form: the message as the body, its title in a `Title` header
    /// (https://docs.ntfy.sh/publish/); the URL names the topic.
    case ntfy
    /// Gotify's message form: `{"title", "message", "priority"}` (the URL carries the app token).
    case gotify
    /// A Web Push subscription of a browser (RFC 8030, encrypted per RFC 8291, signed per RFC 8292).
    case webPush = "webpush"

    /// The formats a webhook may be created with (a Web Push subscription is made by the browser).
    public static let hooks: [WebhookFormat] = [.json, .ntfy, .gotify]
}
