import Foundation

/// Webhooks and their queue in memory (an `InMemoryHabitStore`'s, shared by its owners).
public final class InMemoryWebhookRepository: WebhookRepository {
    /// Everything it holds, as one value a transaction can restore.
    struct Storage {
        var webhooks: [Webhook] = []
        var deliveries: [WebhookDelivery] = []
        var pushKey: PushServerKey?
    }

    var storage = Storage()

    public init() {}

    public func insert(_ webhook: Webhook) throws { storage.webhooks.append(webhook) }

    public func webhooks(of user: String) throws -> [Webhook] { storage.webhooks.filter { $0.user == user } }

    public func webhook(id: UUID) throws -> Webhook? { storage.webhooks.first { $0.id == id } }

    public func delete(id: UUID) throws -> Bool {
        storage.deliveries.removeAll { $0.webhookID == id }
        let count = storage.webhooks.count
        storage.webhooks.removeAll { $0.id == id }
        return storage.webhooks.count < count
    }

    public func enqueue(_ delivery: WebhookDelivery) throws -> Bool {
        guard !storage.deliveries.contains(where: { $0.webhookID == delivery.webhookID && $0.key == delivery.key }) else { return false }
        storage.deliveries.append(delivery)
        return true
    }

    public func due(at now: Date, limit: Int) throws -> [WebhookDelivery] {
        let owners = Dictionary(storage.webhooks.map { ($0.id, $0.user) }, uniquingKeysWith: { first, _ in first })
        var seen = Set<String>()
        return Array(storage.deliveries.filter { $0.state == .pending && $0.nextAttemptAt <= now }
            .sorted { ($0.nextAttemptAt, $0.id.uuidString) < ($1.nextAttemptAt, $1.id.uuidString) }
            .filter { seen.insert(owners[$0.webhookID] ?? "").inserted }.prefix(limit))
    }

    public func update(_ delivery: WebhookDelivery) throws {
        if let index = storage.deliveries.firstIndex(where: { $0.id == delivery.id }) { storage.deliveries[index] = delivery }
    }

    public func deliveries(of webhookID: UUID, limit: Int) throws -> [WebhookDelivery] {
        Array(storage.deliveries.filter { $0.webhookID == webhookID }.reversed().prefix(limit))
    }

    public func users(subscribedTo events: [WebhookEvent]) throws -> [String] {
        Array(Set(storage.webhooks.filter { !Set($0.events).isDisjoint(with: events) }.map(\.user))).sorted()
    }

    public func pushKey() throws -> PushServerKey? { storage.pushKey }

    public func keepPushKey(_ key: PushServerKey, at now: Date) throws -> PushServerKey {
        if storage.pushKey == nil { storage.pushKey = key }
        return storage.pushKey ?? key
    }

    /// A user removed: its webhooks and their queue go with it.
    func deleteAll(of user: String) {
        for webhook in storage.webhooks where webhook.user == user { _ = try? delete(id: webhook.id) }
    }
}
