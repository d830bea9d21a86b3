import Foundation
import StackDay

/// The store's webhooks (`webhooks`) and their delivery queue (`webhook_deliveries`, one row per
/// webhook and event key), in either store. Not owned: the sender reads every user's queue.
public final class SQLWebhookRepository: WebhookRepository {
    private let executor: any SQLExecutor
    private let statements: Statements

    private struct Statements: DialectStatements {
        static let sqlite = Statements(.sqlite), postgres = Statements(.postgres)

        let insert, byUser, byID, deleteDeliveries, delete, enqueue, due, update, deliveries, subscribed, pushKey, keepPushKey: String

        init(_ dialect: SQLDialect) {
            func sql(_ text: String) -> String { dialect.statement(text) }
            let hook = "id, user_name, url, events, secret, created_at, format, push_p256dh, push_auth, push_name, push_holder"
            let delivery = "id, webhook_id, event, event_key, body, created_at, attempts, next_attempt_at, state, last_status, last_error, finished_at"
            insert = sql("INSERT INTO webhooks (\(hook)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)")
            byUser = sql("SELECT \(hook) FROM webhooks WHERE user_name = $1 ORDER BY created_at, id")
            byID = sql("SELECT \(hook) FROM webhooks WHERE id = $1")
            deleteDeliveries = sql("DELETE FROM webhook_deliveries WHERE webhook_id = $1")
            delete = sql("DELETE FROM webhooks WHERE id = $1")
            enqueue = sql("""
                INSERT INTO webhook_deliveries (\(delivery)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
                    ON CONFLICT (webhook_id, event_key) DO NOTHING
                """)
            // Each user's earliest due delivery (its turn), the users' earliest first.
            due = sql("""
                SELECT \(delivery) FROM (
                    SELECT d.*, row_number() OVER (PARTITION BY w.user_name ORDER BY d.next_attempt_at, d.id) AS turn
                    FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
                    WHERE d.state = 'pending' AND d.next_attempt_at <= $1
                ) AS heads WHERE turn = 1 ORDER BY next_attempt_at, id LIMIT $2
                """)
            update = sql("""
                UPDATE webhook_deliveries SET attempts = $2, next_attempt_at = $3, state = $4, last_status = $5, last_error = $6, finished_at = $7
                    WHERE id = $1
                """)
            deliveries = sql("SELECT \(delivery) FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2")
            subscribed = sql("SELECT DISTINCT user_name, events FROM webhooks ORDER BY user_name")
            pushKey = sql("SELECT private_key, public_key FROM push_keys WHERE id = 1")
            keepPushKey = sql("INSERT INTO push_keys (id, private_key, public_key, created_at) VALUES (1, $1::bytea, $2::bytea, $3) ON CONFLICT (id) DO NOTHING")
        }
    }

    public init(executor: any SQLExecutor) {
        self.executor = executor
        statements = .of(executor.dialect)
    }

    private static func events(_ text: String, table: String) throws -> [WebhookEvent] {
        try text.split(separator: ",").map { name in
            guard let event = WebhookEvent(rawValue: String(name)) else { throw SQLRowError(table: table, column: "events", value: text) }
            return event
        }
    }

    private func decode(_ row: any SQLRow) throws -> Webhook {
        guard let format = WebhookFormat(rawValue: row.text("format")) else { throw SQLRowError(table: "webhooks", column: "format", value: row.text("format")) }
        var push: PushSubscription?
        if format == .webPush, let p256dh = row.optionalText("push_p256dh"), let auth = row.optionalText("push_auth") {
            push = PushSubscription(p256dh: p256dh, auth: auth, name: row.optionalText("push_name") ?? "", holder: row.optionalText("push_holder"))
        }
        return Webhook(id: try row.uuid("id", table: "webhooks"), user: row.text("user_name"), url: row.text("url"),
                       events: try Self.events(row.text("events"), table: "webhooks"), secret: row.text("secret"), createdAt: row.instant("created_at"),
                       format: format, push: push)
    }

    private func decodeDelivery(_ row: any SQLRow) throws -> WebhookDelivery {
        let table = "webhook_deliveries"
        guard let event = WebhookEvent(rawValue: row.text("event")) else { throw SQLRowError(table: table, column: "event", value: row.text("event")) }
        guard let state = WebhookDelivery.State(rawValue: row.text("state")) else { throw SQLRowError(table: table, column: "state", value: row.text("state")) }
        return WebhookDelivery(id: try row.uuid("id", table: table), webhookID: try row.uuid("webhook_id", table: table), event: event,
                               key: row.text("event_key"), body: row.text("body"), createdAt: row.instant("created_at"),
                               attempts: Int(row.integer("attempts")), nextAttemptAt: row.instant("next_attempt_at"), state: state,
                               lastStatus: row.isNull("last_status") ? nil : Int(row.integer("last_status")), lastError: row.optionalText("last_error"),
                               finishedAt: row.isNull("finished_at") ? nil : row.instant("finished_at"))
    }

    public func insert(_ webhook: Webhook) throws {
        try executor.run(statements.insert, [.id(webhook.id), .text(webhook.user), .text(webhook.url),
                                             .text(webhook.events.map(\.rawValue).joined(separator: ",")), .text(webhook.secret), .instant(webhook.createdAt),
                                             .text(webhook.format.rawValue), .optional(webhook.push?.p256dh), .optional(webhook.push?.auth),
                                             .optional(webhook.push?.name), .optional(webhook.push?.holder)])
    }

    public func webhooks(of user: String) throws -> [Webhook] {
        try executor.rows(statements.byUser, [.text(user)], decode)
    }

    public func webhook(id: UUID) throws -> Webhook? {
        try executor.rows(statements.byID, [.id(id)], decode).first
    }

    public func delete(id: UUID) throws -> Bool {
        try executor.run(statements.deleteDeliveries, [.id(id)])
        return try executor.run(statements.delete, [.id(id)]) == 1
    }

    public func enqueue(_ delivery: WebhookDelivery) throws -> Bool {
        try executor.run(statements.enqueue, [.id(delivery.id), .id(delivery.webhookID)] + [.text(delivery.event.rawValue), .text(delivery.key), .text(delivery.body)]
                         + values(of: delivery, from: .instant(delivery.createdAt))) == 1
    }

    /// The columns an attempt changes, after `first`.
    private func values(of delivery: WebhookDelivery, from first: SQLValue) -> [SQLValue] {
        [first, .integer(Int64(delivery.attempts)), .instant(delivery.nextAttemptAt), .text(delivery.state.rawValue),
         delivery.lastStatus.map { .integer(Int64($0)) } ?? .null, .optional(delivery.lastError), delivery.finishedAt.map(SQLValue.instant) ?? .null]
    }

    public func due(at now: Date, limit: Int) throws -> [WebhookDelivery] {
        try executor.rows(statements.due, [.instant(now), .integer(Int64(limit))], decodeDelivery)
    }

    public func update(_ delivery: WebhookDelivery) throws {
        try executor.run(statements.update, values(of: delivery, from: .id(delivery.id)))
    }

    public func deliveries(of webhookID: UUID, limit: Int) throws -> [WebhookDelivery] {
        try executor.rows(statements.deliveries, [.id(webhookID), .integer(Int64(limit))], decodeDelivery)
    }

    public func users(subscribedTo events: [WebhookEvent]) throws -> [String] {
        var users: [String] = []
        for (user, wanted) in try executor.rows(statements.subscribed, [], { ($0.text("user_name"), try Self.events($0.text("events"), table: "webhooks")) })
        where !Set(wanted).isDisjoint(with: events) && users.last != user {
            users.append(user)
        }
        return users
    }

    public func pushKey() throws -> PushServerKey? {
        try executor.rows(statements.pushKey, []) { row in PushServerKey(privateKey: row.blob("private_key"), publicKey: row.blob("public_key")) }.first
    }

    public func keepPushKey(_ key: PushServerKey, at now: Date) throws -> PushServerKey {
        try executor.run(statements.keepPushKey, [.blob(key.privateKey), .blob(key.publicKey), .instant(now)])
        return try pushKey() ?? key
    }
}
