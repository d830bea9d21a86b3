import Foundation

/// A user's subscription: where to send which events, and the key each delivery is signed with.
public struct Webhook: Sendable, Equatable {
    public let id: UUID
    public let user: String
    /// An `http://` or `https://` address (`ManageWebhooks.create` checks its form; the server
    /// checks where it resolves to before each delivery).
    public let url: String
    public let events: [WebhookEvent]
    /// The HMAC-SHA256 key of `X-StackDay-Signature`: shown once, when the webhook is created.
    public let secret: String
    public let createdAt: Date
    /// How deliveries are written.
    public let format: WebhookFormat
    /// The browser's keys and name, for a Web Push subscription (`format` `.webPush`).
    public let push: PushSubscription?

    public init(id: UUID, user: String, url: String, events: [WebhookEvent], secret: String, createdAt: Date,
                format: WebhookFormat = .json, push: PushSubscription? = nil) {
        self.id = id
        self.user = user
        self.url = url
        self.events = events
        self.secret = secret
        self.createdAt = createdAt
        self.format = format
        self.push = push
    }
}
