import Foundation
import StackDay
import StackDayHTTPClient
import Synchronization

/// Sends the store's webhook deliveries and finds the events of ended days, on a thread of its
/// own with its own store connection and policies: every `interval`, each due delivery is POSTed
/// (signed, with its id) and settled (`ManageWebhooks.settle`: delivered, retried with backoff,
/// or failed after a day), and each subscribed user whose day has ended since the last look has
/// its `day.missed` and `streak.broken` queued. The queue is the store's, so a restart goes on
/// where it stopped; a delivery is sent at least once (a crash between sending and settling sends
/// it again, with the same delivery id).
///
/// Sending is a pool of `width` attempts at once, each user one at a time and in turns (the
/// store's `due` answers each user's earliest), and every attempt has one deadline for all of it
/// (connect, send, answer: `timeoutSeconds`): a user whose receivers trickle or hang holds one
/// place in the pool for at most that long, and every other user's deliveries go on beside it.
public final class WebhookSender: @unchecked Sendable {
    // Safe: `store`, `policies` and `lastDay` are used only by the thread that runs passes (the
    // sender's own, or a test's calling `pass` while none is started); `running` is under `lock`.
    private let clock: any StackDay.Clock
    private let makeStore: @Sendable () throws -> any HabitStore
    private let makePolicies: @Sendable () throws -> any PolicyResolver
    private let allowsLocal: Bool
    private let push: PushSettings
    /// The server's VAPID key, read from the store (or made) before the first push is sent.
    private var pushKey: PushServerKey?
    /// When each user's reminders were last looked for.
    private var remindedThrough: [String: Date] = [:]
    private let timeoutSeconds: Int
    private let log: @Sendable (String) -> Void
    private var store: (any HabitStore)?
    private var policies: (any PolicyResolver)?
    /// The last ended day found for each user, so a user's day is looked at once per day.
    private var lastDay: [String: LocalDay] = [:]
    private let lock = NSLock()
    private var running = false
    private var thread: Thread?
    /// How many attempts go at once.
    private let width: Int
    /// Attempts under way, by user, and the ones ended but not yet settled (settled by the
    /// thread that runs passes, which alone holds the store).
    private let attempts = Mutex(Attempts())
    private let sending = DispatchQueue(label: "stackday.webhooks.send", attributes: .concurrent)
    /// Every attempt under way, for a waiting pass to wait on.
    private let underWay = DispatchGroup()
    /// Signalled when the started thread has ended.
    private let finished = DispatchSemaphore(value: 0)

    /// How pushes are sent: whether a push service may be on loopback or a private address
    /// (`--allow-local-push`), and whom push services may contact (the VAPID `sub`).
    public struct PushSettings: Sendable {
        public var allowsLocal: Bool
        public var contact: String

        public init(allowsLocal: Bool = false, contact: String = "mailto:stackday@localhost") {
            self.allowsLocal = allowsLocal
            self.contact = contact
        }
    }

    /// One attempt's request, made on the pass thread (which alone holds the store) and sent on
    /// the pool's.
    struct Outgoing {
        let url: String
        let headers: [(String, String)]
        let body: [UInt8]
        /// Whether a loopback or private address may be sent to.
        let allowsLocal: Bool
    }

    struct Attempts {
        var users = Set<String>()
        var ended: [(user: String, delivery: WebhookDelivery, status: Int?, error: String?)] = []
    }

    /// `allowsLocal`: deliver to loopback and private addresses too (`--allow-local-webhooks`).
    public init(clock: any StackDay.Clock, makeStore: @escaping @Sendable () throws -> any HabitStore,
                makePolicies: @escaping @Sendable () throws -> any PolicyResolver, allowsLocal: Bool, push: PushSettings = PushSettings(),
                timeoutSeconds: Int = 10, width: Int = 8, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.push = push
        self.width = max(1, width)
        self.clock = clock
        self.makeStore = makeStore
        self.makePolicies = makePolicies
        self.allowsLocal = allowsLocal
        self.timeoutSeconds = timeoutSeconds
        self.log = log
    }


    /// Refuses a URL whose host resolves to no address deliveries may go to (what `POST
    /// /v1/webhooks` checks before it creates one).
    /// `push`: the URL is a push subscription's endpoint (`--allow-local-push` lets it be local).
    public static func checkAddress(_ url: String, allowsLocal: Bool, push: Bool = false) throws {
        guard !allowsLocal else { return }
        guard let host = URLComponents(string: url)?.host else { return }
        func refuse(_ reason: String) -> UseCaseError {
            push ? .invalidPushSubscription(reason: reason) : .invalidWebhook(reason: reason)
        }
        let addresses: [NetworkAddress]
        do {
            addresses = try NetworkAddress.resolve(host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")))
        } catch HTTPClientError.unreachable(let why) {
            throw refuse(why)
        }
        guard !addresses.isEmpty, addresses.allSatisfy(\.isPublic) else {
            throw refuse("\(host) is a loopback or private address; a server started with \(push ? "--allow-local-push" : "--allow-local-webhooks") sends there")
        }
    }

    /// Reads the server's push key from the store, or makes and keeps one (the first start);
    /// answers why push messages cannot be sent when they cannot (libcrypto missing), else nil.
    /// Call before `start`.
    public func preparePush() -> String? {
        do {
            pushKey = try PushKeyring.key(in: try base(), at: clock.now)
            return nil
        } catch {
            return "push reminders are off: \(error)"
        }
    }

    /// Starts passes every `interval` seconds on the sender's thread.
    public func start(interval: Double = 1) {
        lock.lock()
        defer { lock.unlock() }
        guard !running else { return }
        running = true
        let thread = Thread { [self] in
            while isRunning {
                pass(waiting: false)
                Thread.sleep(forTimeInterval: interval)
            }
            // Attempts that ended are kept before the thread ends, so that a server stopped
            // right after sending does not send again on its next start.
            _ = underWay.wait(timeout: .now() + .seconds(timeoutSeconds))
            if let store { try? settleEnded(in: store) }
            finished.signal()
        }
        thread.name = "stackday.webhooks"
        self.thread = thread
        thread.start()
    }

    /// Stops after the pass under way; with `grace`, waits up to that many seconds for the
    /// attempts under way to end and be kept.
    public func stop(grace: Double = 0) {
        lock.lock()
        let wasRunning = running
        running = false
        lock.unlock()
        if wasRunning, grace > 0 { _ = finished.wait(timeout: .now() + grace) }
    }

    private var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        return running
    }

    /// One pass: day ends, then due deliveries. Returns the deliveries attempted. `waiting`: the
    /// pass sends every delivery due and settles it before it returns (as tests call it); else it
    /// starts each free user's turn and settles the attempts that ended since the last pass (the
    /// sender's own thread, so that no attempt holds the next pass).
    @discardableResult
    public func pass(waiting: Bool = true) -> Int {
        do {
            try findDayEnds()
            try findReminders()
            return try deliverDue(waiting: waiting)
        } catch {
            // The store may be gone for a moment; the next pass opens it again.
            log("webhooks: \(error)")
            store = nil
            return 0
        }
    }

    private func base() throws -> any HabitStore {
        if let store { return store }
        let made = try makeStore()
        store = made
        return made
    }

    private func context(_ store: any HabitStore, boundary: DayBoundary) throws -> HabitContext {
        if policies == nil { policies = try makePolicies() }
        return HabitContext(store: store, clock: clock, boundary: boundary, policies: policies ?? StandardPolicyResolver())
    }

    /// Queues the events of each subscribed user's ended day, once per user and day.
    func findDayEnds() throws {
        let store = try base()
        let users = try store.read { tx in try tx.webhooks?.users(subscribedTo: [.dayMissed, .streakBroken]) ?? [] }
        for name in users {
            guard let user = try store.read({ try $0.users.user(named: name) }) else { continue }
            let context = try context(try store.scoped(to: name), boundary: user.boundary)
            let ended = context.today.adding(days: -1)
            guard lastDay[name] != ended else { continue }
            do {
                try ManageWebhooks(context: context).queueDayEnd()
                lastDay[name] = ended
            } catch {
                log("webhooks: the day end of \(name): \(error)")
            }
        }
    }

    /// Queues the reminders that rang since each subscribed user was last looked at (at most the
    /// last 5 minutes: a server down longer does not send stale ones), once a minute a user.
    func findReminders() throws {
        let store = try base()
        let now = clock.now
        let users = try store.read { tx in try tx.webhooks?.users(subscribedTo: [.reminder]) ?? [] }
        for name in users {
            let since = max(remindedThrough[name] ?? .distantPast, now.addingTimeInterval(-300))
            guard now.timeIntervalSince(since) >= 60 || remindedThrough[name] == nil else { continue }
            guard let user = try store.read({ try $0.users.user(named: name) }) else { continue }
            do {
                try ManagePush(context: try context(try store.scoped(to: name), boundary: user.boundary)).queueReminders(after: since, through: now)
                remindedThrough[name] = now
            } catch {
                log("reminders of \(name): \(error)")
            }
        }
    }

    /// Starts each free user's turn (at most `width` attempts at once) and settles the attempts
    /// that ended; with `waiting`, goes on until nothing is due. Returns how many were started.
    func deliverDue(waiting: Bool, limit: Int = 200) throws -> Int {
        let store = try base()
        var started = 0
        repeat {
            try settleEnded(in: store)
            let busy = attempts.withLock { $0.users }
            var turns: [(user: String, delivery: WebhookDelivery, outgoing: Outgoing)] = []
            for delivery in try store.read({ tx in try tx.webhooks?.due(at: clock.now, limit: limit) ?? [] }) {
                guard busy.count + turns.count < width else { break }
                guard let webhook = try store.read({ try $0.webhooks?.webhook(id: delivery.webhookID) }), !busy.contains(webhook.user) else { continue }
                // A reminder whose habit is no longer open is settled unsent; one that cannot be
                // written (a subscription's keys that are not keys) is an attempt that failed.
                if delivery.event == .reminder, try !stillWanted(delivery, of: webhook.user, in: store) {
                    try store.scoped(to: webhook.user).write { tx in try tx.webhooks?.update(ManageWebhooks.settleUnsent(delivery, at: clock.now)) }
                    continue
                }
                do {
                    turns.append((webhook.user, delivery, try outgoing(delivery, to: webhook, in: store)))
                } catch {
                    try settle(delivery, of: webhook, status: nil, error: "\(error)", in: store)
                }
            }
            if turns.isEmpty {
                // Waiting, a pass ends once the attempts of earlier passes have ended and settled too.
                guard waiting, !attempts.withLock({ $0.users.isEmpty }) else { break }
                underWay.wait()
                continue
            }
            attempts.withLock { state in for turn in turns { state.users.insert(turn.user) } }
            for turn in turns {
                sending.async(group: underWay) { [self] in
                    let (status, error) = send(turn.outgoing)
                    attempts.withLock { $0.ended.append((turn.user, turn.delivery, status, error)) }
                }
            }
            started += turns.count
            if waiting { underWay.wait() }
        } while waiting
        try settleEnded(in: store)
        return started
    }

    /// Settles each ended attempt (`ManageWebhooks.settle`) and frees its user's turn.
    private func settleEnded(in store: any HabitStore) throws {
        let ended = attempts.withLock { state in
            defer { state.ended = [] }
            return state.ended
        }
        for attempt in ended {
            if let webhook = try store.read({ try $0.webhooks?.webhook(id: attempt.delivery.webhookID) }) {
                try settle(attempt.delivery, of: webhook, status: attempt.status, error: attempt.error, in: store)
            }
            _ = attempts.withLock { $0.users.remove(attempt.user) }
        }
    }

    /// Keeps an attempt's outcome; a push subscription its service says is gone is removed. The
    /// write is the webhook's user's (through the store scoped to them), so it moves that user's
    /// change count and the answers kept for them (a delivery log, a list of subscriptions) with it.
    private func settle(_ delivery: WebhookDelivery, of webhook: Webhook, status: Int?, error: String?, in store: any HabitStore) throws {
        let gone = ManageWebhooks.isGone(webhook, status: status)
        let settled = ManageWebhooks.settle(delivery, status: status, error: error, at: clock.now, gone: gone)
        try store.scoped(to: webhook.user).write { tx in
            try tx.webhooks?.update(settled)
            if gone { _ = try tx.webhooks?.delete(id: webhook.id) }
        }
        if gone { log("push subscription \(webhook.id.uuidString.lowercased()) of \(webhook.user) is gone (\(status ?? 0)): removed") }
    }

    /// Whether a reminder is still worth sending (`ManagePush.isStillWanted`, in the user's day).
    private func stillWanted(_ delivery: WebhookDelivery, of name: String, in store: any HabitStore) throws -> Bool {
        guard let user = try store.read({ try $0.users.user(named: name) }) else { return false }
        return (try? ManagePush(context: try context(try store.scoped(to: name), boundary: user.boundary)).isStillWanted(delivery)) ?? true
    }

    /// The request that sends `delivery` to `webhook`, in the webhook's format.
    func outgoing(_ delivery: WebhookDelivery, to webhook: Webhook, in store: any HabitStore) throws -> Outgoing {
        let base: [(String, String)] = [("User-Agent", "StackDay-Webhook/1")]
        switch webhook.format {
        case .json:
            let body = Array(delivery.body.utf8)
            return Outgoing(url: webhook.url, headers: base + [
                ("Content-Type", "application/json"), ("X-StackDay-Event", delivery.event.rawValue),
                ("X-StackDay-Delivery", delivery.id.uuidString.lowercased()), ("X-StackDay-Signature", WebhookSignature.header(body: body, secret: webhook.secret)),
            ], body: body, allowsLocal: allowsLocal)
        case .ntfy:
            let message = DeliveryMessage(delivery)
            return Outgoing(url: webhook.url, headers: base + [("Content-Type", "text/plain; charset=utf-8"), ("Title", Self.headerText(message.title)),
                                                               ("Tags", delivery.event == .reminder ? "bell" : "calendar")],
                            body: Array(message.body.utf8), allowsLocal: allowsLocal)
        case .gotify:
            let message = DeliveryMessage(delivery)
            let body = JSONValue.object(["title": .string(message.title), "message": .string(message.body), "priority": .number(5)]).jsonText
            return Outgoing(url: webhook.url, headers: base + [("Content-Type", "application/json")], body: Array(body.utf8), allowsLocal: allowsLocal)
        case .webPush:
            guard let subscription = webhook.push, let p256dh = Base64URL.decode(subscription.p256dh), let auth = Base64URL.decode(subscription.auth) else {
                throw PushCryptoError.failed("the subscription's keys are not base64url")
            }
            let key = try pushKey ?? PushKeyring.key(in: store, at: clock.now)
            pushKey = key
            let payload = Array(DeliveryMessage(delivery).pushPayload.jsonText.utf8)
            let body = try WebPushEncryption.encrypt(payload, subscriber: p256dh, auth: auth)
            let remaining = max(60, Int(ManagePush.retryWindow - clock.now.timeIntervalSince(delivery.createdAt)))
            return Outgoing(url: webhook.url, headers: base + [
                ("TTL", String(remaining)), ("Urgency", "normal"), ("Content-Encoding", "aes128gcm"), ("Content-Type", "application/octet-stream"),
                ("Authorization", try VAPIDAuthorization.header(endpoint: webhook.url, contact: push.contact, key: key, now: clock.now)),
            ], body: body, allowsLocal: push.allowsLocal)
        }
    }

    /// A header value: printable ASCII as it is; any other text as one RFC 2047 encoded-word
    /// (`=?UTF-8?B?…?=`), which ntfy decodes, so a Korean or emoji title arrives whole.
    static func headerText(_ text: String) -> String {
        let plain = String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
        guard !plain.utf8.allSatisfy({ (0x20..<0x7F).contains($0) }) else { return plain }
        return "=?UTF-8?B?" + Data(plain.utf8).base64EncodedString() + "?="
    }

    /// One attempt: the answer's status, or why there was none.
    private func send(_ outgoing: Outgoing) -> (status: Int?, error: String?) {
        guard let url = URLComponents(string: outgoing.url), let host = url.host, let scheme = url.scheme?.lowercased() else {
            return (nil, "the url is not one this server can send to")
        }
        let tls = scheme == "https"
        var target = url.percentEncodedPath.isEmpty ? "/" : url.percentEncodedPath
        if let query = url.percentEncodedQuery { target += "?" + query }
        let port = UInt16(url.port ?? (tls ? 443 : 80))
        var connection = HTTPClientConnection(host: host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port: port, tls: tls,
                                              timeoutSeconds: timeoutSeconds)
        // One deadline for the whole attempt, not for each read: a receiver that sends a byte now
        // and then is cut off when it passes.
        let socket = HTTPClientSocket()
        let deadline = DispatchWorkItem { socket.shutDown() }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(timeoutSeconds), execute: deadline)
        defer { deadline.cancel() }
        connection.maximumAnswer = 1 << 20
        let message = connection.post(target, headers: outgoing.headers, body: outgoing.body)
        let allowsLocal = outgoing.allowsLocal
        do {
            let answer = try HTTPClientAnswer(parsing: try connection.exchange(message, socket: socket, admit: { allowsLocal || $0.isPublic }))
            return (answer.status, (200..<300).contains(answer.status) ? nil : "the receiver answered \(answer.status)")
        } catch let failure as HTTPClientError {
            if socket.wasShutDown { return (nil, "no whole answer within \(timeoutSeconds) s") }
            switch failure {
            case .unreachable(let why), .tlsFailed(let why), .invalidAnswer(let why), .addressRefused(let why): return (nil, why)
            }
        } catch {
            return (nil, "\(error)")
        }
    }
}
