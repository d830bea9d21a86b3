import Foundation

/// One event on its way to one webhook: its JSON body, fixed when the event happened, and how
/// its attempts went. Kept in the store, so a server that restarts goes on where it stopped.
public struct WebhookDelivery: Sendable, Equatable {
    public enum State: String, Sendable {
        /// Waiting for its next attempt (`nextAttemptAt`).
        case pending
        /// A receiver answered 2xx.
        case delivered
        /// Retried for `ManageWebhooks.retryWindow` without a 2xx; not tried again.
        case failed
    }

    public let id: UUID
    public let webhookID: UUID
    public let event: WebhookEvent
    /// What makes two deliveries one event (`record/<record id>`, `day.missed/<habit id>/<day>`):
    /// a webhook gets each key once, however often the event is found.
    public let key: String
    public let body: String
    public let createdAt: Date
    public var attempts: Int
    public var nextAttemptAt: Date
    public var state: State
    /// The last attempt's HTTP status, when the receiver answered.
    public var lastStatus: Int?
    /// Why the last attempt failed, when it did.
    public var lastError: String?
    public var finishedAt: Date?

    public init(id: UUID, webhookID: UUID, event: WebhookEvent, key: String, body: String, createdAt: Date, attempts: Int = 0,
                nextAttemptAt: Date, state: State = .pending, lastStatus: Int? = nil, lastError: String? = nil, finishedAt: Date? = nil) {
        self.id = id
        self.webhookID = webhookID
        self.event = event
        self.key = key
        self.body = body
        self.createdAt = createdAt
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.state = state
        self.lastStatus = lastStatus
        self.lastError = lastError
        self.finishedAt = finishedAt
    }
}
