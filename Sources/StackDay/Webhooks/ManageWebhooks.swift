import Foundation

/// A user's webhooks: created with an address and the events wanted, listed, deleted, and their
/// delivery log; and the queue of deliveries, filled inside the writes that make the events
/// (`queue`), after a user's day ends (`queueDayEnd`), and when a record makes a streak reach a
/// milestone (`queueMilestone`). Sending is the server's (`WebhookSender`); what an attempt's
/// outcome means for a delivery is decided here (`settle`).
public struct ManageWebhooks {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Webhooks one user may have.
    /// How long a delivery is retried for, counted from the event.
    public static let retryWindow: TimeInterval = 24 * 3600

    /// The wait before attempt `attempts + 1` after `attempts` failed ones: 10 s, then doubling
    /// (20 s, 40 s, … ), at most an hour, so that a receiver down for a day is tried about 30 times.
    public static func retryDelay(after attempts: Int) -> TimeInterval {
        min(3600, 10 * pow(2, Double(max(0, attempts - 1))))
    }

    private var repository: (HabitTransaction) throws -> any WebhookRepository {
        { tx in
            guard let webhooks = tx.webhooks else { throw UseCaseError.invalidWebhook(reason: "this store keeps no webhooks (use a SQLite file or PostgreSQL)") }
            return webhooks
        }
    }

    /// A new webhook of `user` for `events` at `url` (`http://` or `https://`, no user name or
    /// password in it); its secret is in the answer, and only there. `checkAddress` is the
    /// surface's check of where the URL's host resolves to (it throws to refuse); it runs once the
    /// URL's form is checked, so only an address is ever looked up.
    public func create(user: String, url: String, events: [WebhookEvent], format: WebhookFormat = .json,
                       checkAddress: (String) throws -> Void = { _ in }) throws -> Webhook {
        guard format != .webPush else { throw UseCaseError.invalidWebhook(reason: "a Web Push subscription is made by a browser (POST /v1/push/subscriptions)") }
        let url = url.trimmingCharacters(in: .whitespaces)
        try Self.check(url: url, events: events)
        try checkAddress(url)
        var unique: [WebhookEvent] = []
        for event in events where !unique.contains(event) { unique.append(event) }
        let webhook = Webhook(id: TimeOrderedID.next(), user: user, url: url, events: unique, secret: ManageSessions.randomHex(prefix: "whsec_"), createdAt: context.clock.now,
                              format: format)
        try context.store.write { tx in
            let webhooks = try repository(tx)
            guard try tx.users.user(named: user) != nil else { throw UseCaseError.userNotFound(name: user) }
            try context.limits(of: user, in: tx).check(.webhooks, holding: try webhooks.webhooks(of: user).count + 1)
            try webhooks.insert(webhook)
        }
        return webhook
    }

    /// The form of a webhook: an absolute `http`/`https` URL with a host, at most 2,000
    /// characters, without credentials or a fragment, and at least one event.
    static func check(url: String, events: [WebhookEvent]) throws {
        guard !events.isEmpty else { throw UseCaseError.invalidWebhook(reason: "name at least one event (\(WebhookEvent.names))") }
        guard url.utf8.count <= 2000 else { throw UseCaseError.invalidWebhook(reason: "the url is longer than 2000 characters") }
        guard let parsed = URLComponents(string: url), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = parsed.host, !host.isEmpty else {
            throw UseCaseError.invalidWebhook(reason: "the url must be an absolute http:// or https:// address, not \"\(url)\"")
        }
        guard parsed.user == nil, parsed.password == nil else { throw UseCaseError.invalidWebhook(reason: "the url must not hold a user name or password") }
        guard parsed.fragment == nil else { throw UseCaseError.invalidWebhook(reason: "the url must not have a #fragment") }
    }

    /// The user's webhooks, without the browsers' push subscriptions (`ManagePush` lists those).
    public func webhooks(of user: String) throws -> [Webhook] {
        try context.store.read { try repository($0).webhooks(of: user).filter { $0.format != .webPush } }
    }

    /// Deletes one of `user`'s webhooks and its queue; throws `UseCaseError.webhookNotFound`.
    public func delete(_ id: UUID, of user: String) throws {
        try context.store.write { tx in
            let webhooks = try repository(tx)
            guard let webhook = try webhooks.webhook(id: id), webhook.user == user, webhook.format != .webPush, try webhooks.delete(id: id) else {
                throw UseCaseError.webhookNotFound(id: id.uuidString.lowercased())
            }
        }
    }

    /// One of `user`'s webhooks and its latest `limit` deliveries, the newest first.
    public func deliveries(of id: UUID, user: String, limit: Int = 100) throws -> (webhook: Webhook, deliveries: [WebhookDelivery]) {
        try context.store.read { tx in
            let webhooks = try repository(tx)
            guard let webhook = try webhooks.webhook(id: id), webhook.user == user else { throw UseCaseError.webhookNotFound(id: id.uuidString.lowercased()) }
            return (webhook, try webhooks.deliveries(of: id, limit: limit))
        }
    }

    /// Queues `event` for each of `user`'s webhooks that wants it, in the transaction `tx` of the
    /// write that made it (so the event is queued exactly when the write commits). `key` names the
    /// event; `data` is what the body says of it. Nothing for a store that keeps no webhooks.
    /// `to`: which of the webhooks wanting it get it (default all). Returns how many deliveries
    /// were queued; each is first tried at `now` (a later instant queues it ahead).
    @discardableResult
    public static func queue(_ event: WebhookEvent, key: String, data: JSONValue, user: String, at now: Date,
                             in tx: any HabitTransaction, to wanted: (Webhook) -> Bool = { _ in true }) throws -> Int {
        guard let webhooks = tx.webhooks else { return 0 }
        var queued = 0
        for webhook in try webhooks.webhooks(of: user) where webhook.events.contains(event) && wanted(webhook) {
            let id = UUID()
            let body = JSONValue.object([
                "id": .string(id.uuidString.lowercased()), "event": .string(event.rawValue), "user": .string(user),
                "created_at": .string(Self.instantText(now)), "data": data,
            ])
            if try webhooks.enqueue(WebhookDelivery(id: id, webhookID: webhook.id, event: event, key: event.rawValue + "/" + key, body: body.jsonText,
                                                    createdAt: now, nextAttemptAt: now)) {
                queued += 1
            }
        }
        return queued
    }

    /// Whether `user` has a webhook for any of `events` (a read, to skip work nobody asked for).
    public func wants(_ events: [WebhookEvent], user: String) throws -> Bool {
        try context.store.read { tx in try tx.webhooks?.webhooks(of: user).contains { !Set($0.events).isDisjoint(with: events) } ?? false }
    }

    /// After a record on `day` of `habit`: a `streak.milestone` when the habit's current streak is
    /// now one of `WebhookEvent.milestones` (once per habit, streak and day).
    public func queueMilestone(habit name: String, day: LocalDay) throws {
        let user = context.store.owner
        guard try wants([.streakMilestone], user: user) else { return }
        let explained = try ExplainHabit(context: context)(.name(name), from: context.today, to: context.today)
        let streak = explained.streak.current
        guard WebhookEvent.milestones.contains(streak) else { return }
        let habit = explained.habit
        _ = try context.store.write { tx in
            try Self.queue(.streakMilestone, key: "\(habit.id.uuidString.lowercased())/\(streak)/\(day.iso)",
                           data: .object(["habit": .string(habit.name), "day": .string(day.iso), "streak": .number(Double(streak))]),
                           user: user, at: context.clock.now, in: tx)
        }
    }

    /// After the owner's day ends: for each active habit whose last step (a due day, or a quota
    /// period) ended yesterday unmet, a `day.missed`, and a `streak.broken` when the streak it
    /// ended was more than zero. Queued once per habit and day, however often this runs; a habit
    /// whose policy fails is passed over. Returns how many deliveries were queued.
    @discardableResult
    public func queueDayEnd() throws -> Int {
        let user = context.store.owner
        guard try wants([.dayMissed, .streakBroken], user: user) else { return 0 }
        let ended = context.today.adding(days: -1)
        // Archived after a day: that day is the last one tracked.
        let habits = try context.store.read { tx in try tx.habits.all() }.filter { $0.startedOn <= ended && ($0.archivedOn ?? ended) >= ended }
        var queued = 0
        for habit in habits {
            guard let explained = try? ExplainHabit(context: context)(.id(habit.id), from: max(habit.startedOn, ended.adding(days: -1)), to: ended),
                  let last = explained.steps.last, last.days.last == ended, last.entry.state == .missed else { continue }
            let before = explained.steps.dropLast().last?.step.streak.current ?? 0
            let habitKey = habit.id.uuidString.lowercased() + "/" + ended.iso
            var data: [String: JSONValue] = ["habit": .string(habit.name), "day": .string(ended.iso)]
            if last.days.first != last.days.last { data["period"] = .object(["from": .string(last.days.first.iso), "to": .string(last.days.last.iso)]) }
            try context.store.write { tx in
                try Self.queue(.dayMissed, key: habitKey, data: .object(data), user: user, at: context.clock.now, in: tx)
                if before > 0, last.step.streak.current == 0 {
                    data["streak"] = .number(Double(before))
                    try Self.queue(.streakBroken, key: habitKey, data: .object(data), user: user, at: context.clock.now, in: tx)
                }
            }
            queued += 1
        }
        return queued
    }

    /// What one attempt's outcome makes of a delivery: delivered on a 2xx; otherwise tried again
    /// after `retryDelay`, or failed for good once the next attempt would fall outside `retryWindow`
    /// (a reminder's: `ManagePush.retryWindow`), or at once when the receiver is `gone` (`isGone`).
    public static func settle(_ delivery: WebhookDelivery, status: Int?, error: String?, at now: Date, gone: Bool = false) -> WebhookDelivery {
        var settled = delivery
        settled.attempts += 1
        settled.lastStatus = status
        settled.lastError = error
        if let status, (200..<300).contains(status) {
            settled.state = .delivered
            settled.finishedAt = now
            return settled
        }
        if gone {
            settled.state = .failed
            settled.finishedAt = now
            return settled
        }
        let next = now.addingTimeInterval(retryDelay(after: settled.attempts))
        // A reminder is worth sending within its hour only (from when it was to ring).
        let window = delivery.event == .reminder ? ManagePush.retryWindow : retryWindow
        if next.timeIntervalSince(delivery.createdAt) > window {
            settled.state = .failed
            settled.finishedAt = now
        } else {
            settled.nextAttemptAt = next
        }
        return settled
    }

    /// A reminder not sent because its habit stopped being open before it left: settled, with
    /// the reason in its log.
    public static func settleUnsent(_ delivery: WebhookDelivery, at now: Date) -> WebhookDelivery {
        var settled = delivery
        settled.state = .delivered
        settled.lastError = "not sent: the habit was no longer open"
        settled.finishedAt = now
        return settled
    }

    /// Whether an answer says a push subscription is gone for good (404 or 410, RFC 8030 §7.3):
    /// it is removed and never tried again.
    public static func isGone(_ webhook: Webhook, status: Int?) -> Bool {
        webhook.format == .webPush && (status == 404 || status == 410)
    }

    /// An instant as RFC 3339 in UTC with milliseconds.
    static func instantText(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
