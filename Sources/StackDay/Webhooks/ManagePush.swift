import Foundation

/// A user's Web Push subscriptions and reminders: a browser's subscription kept as a webhook of
/// its own format (so pushes share the webhooks' queue, retries and fair sending), listed and
/// removed by whoever made it; and the reminders queued for it and for webhooks that want them.
///
/// A reminder goes out at each of a habit's reminder times (`DayBoundary.instant(of:on:)`, in
/// the user's zone) only while the habit's day is still `pending`: none for a day met, skipped,
/// over its limit or not due, and none once it stopped being open before the message left.
public struct ManagePush {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// How long a reminder is tried for, from when it was to ring.
    public static let retryWindow: TimeInterval = 3600

    /// How long "Later" waits.
    public static let laterDelay: TimeInterval = 3600

    private func repository(_ tx: any HabitTransaction) throws -> any WebhookRepository {
        guard let webhooks = tx.webhooks else {
            throw UseCaseError.invalidPushSubscription(reason: "this store keeps no subscriptions (use a SQLite file or PostgreSQL)")
        }
        return webhooks
    }

    /// Keeps a browser's subscription for the context's owner: `endpoint` its push service's URL,
    /// `p256dh` and `auth` its keys (base64url), `name` what the user calls it, `holder` who made
    /// it. The same endpoint again replaces the one kept (a browser subscribing anew).
    /// `checkAddress` is the server's check of where the endpoint resolves to.
    public func subscribe(endpoint: String, p256dh: String, auth: String, name: String?, holder: String?,
                          checkAddress: (String) throws -> Void = { _ in }) throws -> Webhook {
        let user = context.store.owner
        let endpoint = endpoint.trimmingCharacters(in: .whitespaces)
        do {
            try ManageWebhooks.check(url: endpoint, events: [.reminder])
        } catch UseCaseError.invalidWebhook(let reason) {
            throw UseCaseError.invalidPushSubscription(reason: reason.replacingOccurrences(of: "the url", with: "the endpoint"))
        }
        guard let point = Base64URL.decode(p256dh), point.count == 65, point.first == 4 else {
            throw UseCaseError.invalidPushSubscription(reason: "keys.p256dh must be a P-256 public key: 65 bytes, uncompressed, in base64url")
        }
        guard let secret = Base64URL.decode(auth), secret.count == 16 else {
            throw UseCaseError.invalidPushSubscription(reason: "keys.auth must be 16 bytes in base64url")
        }
        let name = (name ?? "").trimmedWhitespace
        guard name.count <= PushSubscription.nameLimit, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw UseCaseError.invalidPushSubscription(reason: "the name must be at most \(PushSubscription.nameLimit) printable characters")
        }
        try checkAddress(endpoint)
        let webhook = Webhook(id: TimeOrderedID.next(), user: user, url: endpoint, events: [.reminder], secret: ManageSessions.randomHex(prefix: "push_"),
                              createdAt: context.clock.now, format: .webPush,
                              push: PushSubscription(p256dh: p256dh, auth: auth, name: name.isEmpty ? "Browser" : name, holder: holder))
        try context.store.write { tx in
            let webhooks = try repository(tx)
            let held = try webhooks.webhooks(of: user)
            let replaced = held.filter { $0.format == .webPush && $0.url == endpoint }
            for old in replaced { _ = try webhooks.delete(id: old.id) }
            try context.limits(of: user, in: tx).check(.webhooks, holding: held.count - replaced.count + 1)
            try webhooks.insert(webhook)
        }
        return webhook
    }

    /// The owner's subscriptions that `holder` sees: a device or browser session its own, the
    /// account's token (nil) every one; the oldest first.
    public func subscriptions(holder: String?) throws -> [Webhook] {
        try context.store.read { tx in
            try repository(tx).webhooks(of: context.store.owner).filter { $0.format == .webPush && Self.sees(holder, $0) }
        }
    }

    /// Removes one subscription `holder` sees; throws `UseCaseError.pushSubscriptionNotFound`.
    public func unsubscribe(_ id: UUID, holder: String?) throws {
        try context.store.write { tx in
            let webhooks = try repository(tx)
            guard let webhook = try webhooks.webhook(id: id), webhook.user == context.store.owner, webhook.format == .webPush,
                  Self.sees(holder, webhook), try webhooks.delete(id: id)
            else { throw UseCaseError.pushSubscriptionNotFound(id: id.uuidString.lowercased()) }
        }
    }

    private static func sees(_ holder: String?, _ webhook: Webhook) -> Bool {
        holder == nil || webhook.push?.holder == holder
    }

    /// Queues the reminders that ring after `start` and up to `end` (instants) for the owner's
    /// habits still open today, to every webhook wanting `reminder`; once per habit, day and time
    /// however often this runs. Returns how many deliveries were queued.
    @discardableResult
    public func queueReminders(after start: Date, through end: Date) throws -> Int {
        let user = context.store.owner
        guard end > start, try ManageWebhooks(context: context).wants([.reminder], user: user) else { return 0 }
        let today = context.today
        let habits = try context.store.read { tx in try tx.habits.all() }
        var ringing: [(habit: Habit, time: ReminderTime)] = []
        for habit in habits where habit.startedOn <= today && (habit.archivedOn ?? today) >= today {
            for time in habit.revision(on: today).reminders {
                let instant = context.boundary.instant(of: time, on: today)
                if instant > start && instant <= end { ringing.append((habit, time)) }
            }
        }
        guard !ringing.isEmpty else { return 0 }
        let open = try openToday(Set(ringing.map(\.habit.id)))
        var queued = 0
        for (habit, time) in ringing {
            guard let summary = open[habit.id], policiesRemind(summary) else { continue }
            queued += try queue(summary, kind: "reminder", key: "\(habit.id.uuidString.lowercased())/\(today.iso)/\(time)")
        }
        return queued
    }

    /// "Later" on a reminder of `name`: one more reminder an hour from now, if the habit is still
    /// open then. Throws `UseCaseError.habitNotFound`. Returns how many deliveries were queued.
    @discardableResult
    public func queueLater(habit name: String) throws -> Int {
        let habit = try FindHabit(context: context)(named: name)
        guard let summary = try openToday([habit.id])[habit.id] else { return 0 }
        let at = context.clock.now.addingTimeInterval(Self.laterDelay)
        return try queue(summary, kind: "later", key: "\(habit.id.uuidString.lowercased())/\(context.today.iso)/later-\(Int(at.timeIntervalSince1970))",
                         at: at)
    }

    /// A test message to each of the subscriptions `holder` sees, now. Returns how many.
    @discardableResult
    public func queueTest(holder: String?) throws -> Int {
        let user = context.store.owner
        let now = context.clock.now
        return try context.store.write { tx in
            let language = try tx.users.user(named: user)?.language
            let data: [String: JSONValue] = ["kind": .string("test"), "language": language.map(JSONValue.string) ?? .null]
            return try ManageWebhooks.queue(.reminder, key: "test/\(UUID().uuidString.lowercased())", data: .object(data), user: user, at: now, in: tx) {
                $0.format == .webPush && Self.sees(holder, $0)
            }
        }
    }

    /// Whether a reminder delivery is still worth sending: a test always; a reminder while its
    /// habit is still open on its day, which is still today.
    public func isStillWanted(_ delivery: WebhookDelivery) throws -> Bool {
        let parts = delivery.key.split(separator: "/").map(String.init)
        guard delivery.event == .reminder, parts.count >= 3, let id = UUID(uuidString: parts[1]) else { return true }
        guard parts[2] == context.today.iso else { return false }
        return try openToday([id])[id] != nil
    }

    /// What the habit's own policies say (`RemindingPolicy`: a `remind` in its schedule or
    /// progress policy): either answering false keeps the reminder back; none answering, or one
    /// failing, leaves it to go out, so a broken rule never silences reminders.
    private func policiesRemind(_ summary: HabitSummary) -> Bool {
        let day = context.today, progress = summary.today?.progress ?? 0
        let answers = try? context.store.read { tx -> [Bool?] in
            let policies = try context.policies.policies(for: summary.habit, revision: summary.revision, scripts: tx.scripts)
            return [policies.schedule as? RemindingPolicy, policies.progress as? RemindingPolicy].map { policy in
                (try? policy?.remind(day: day, progress: progress)) ?? nil
            }
        }
        return !(answers ?? []).contains(false)
    }

    /// Today's summary of each of `ids` whose day is still `pending`.
    private func openToday(_ ids: Set<UUID>) throws -> [UUID: HabitSummary] {
        var open: [UUID: HabitSummary] = [:]
        for case .success(let summary) in try SummarizeHabits(context: context)(includeArchived: false)
        where ids.contains(summary.habit.id) && summary.today?.day == context.today && summary.today?.state == .pending {
            open[summary.habit.id] = summary
        }
        return open
    }

    /// Queues one reminder of `summary`'s habit, to ring at `at` (default now).
    private func queue(_ summary: HabitSummary, kind: String, key: String, at: Date? = nil) throws -> Int {
        let user = context.store.owner
        let habit = summary.habit, entry = summary.today
        return try context.store.write { tx in
            let language = try tx.users.user(named: user)?.language
            let data: [String: JSONValue] = [
                "kind": .string(kind), "habit": .string(habit.name), "day": .string(context.today.iso),
                "total": .number(entry?.total ?? 0), "goal": .number(summary.revision.goal), "unit": .string(habit.unit),
                "progress": .number(entry?.progress ?? 0), "language": language.map(JSONValue.string) ?? .null,
            ]
            return try ManageWebhooks.queue(.reminder, key: key, data: .object(data), user: user, at: at ?? context.clock.now, in: tx)
        }
    }
}
