import Foundation

/// The store's webhooks and their delivery queue. Like users, not scoped to one owner: the
/// server's sender reads every user's due deliveries.
public protocol WebhookRepository {
    func insert(_ webhook: Webhook) throws
    /// The user's webhooks, the oldest first.
    func webhooks(of user: String) throws -> [Webhook]
    func webhook(id: UUID) throws -> Webhook?
    /// Removes a webhook with its deliveries; whether there was one.
    func delete(id: UUID) throws -> Bool
    /// Queues a delivery unless its webhook already has one with its key; whether it was queued.
    func enqueue(_ delivery: WebhookDelivery) throws -> Bool
    /// Each user's next turn: of the pending deliveries due at `now` to a user's webhooks, the
    /// earliest (one a user, so that a user with many deliveries waiting does not fill the
    /// page); the users' earliest first.
    func due(at now: Date, limit: Int) throws -> [WebhookDelivery]
    /// Writes a delivery's attempts, state and outcome.
    func update(_ delivery: WebhookDelivery) throws
    /// A webhook's latest deliveries, the newest first.
    func deliveries(of webhookID: UUID, limit: Int) throws -> [WebhookDelivery]
    /// The users with a webhook for any of `events`.
    func users(subscribedTo events: [WebhookEvent]) throws -> [String]
    /// The server's Web Push key, nil until one is kept.
    func pushKey() throws -> PushServerKey?
    /// Keeps `key` as the server's Web Push key unless one is kept already; answers the one kept
    /// (two servers starting at once on one store end up with the same key).
    func keepPushKey(_ key: PushServerKey, at now: Date) throws -> PushServerKey
}
