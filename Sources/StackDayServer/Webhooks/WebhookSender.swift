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

    struct Attempts {
        var users = Set<String>()
        var ended: [(user: String, delivery: WebhookDelivery, status: Int?, error: String?)] = []
    }

    /// `allowsLocal`: deliver to loopback and private addresses too (`--allow-local-webhooks`).
    public init(clock: any StackDay.Clock, makeStore: @escaping @Sendable () throws -> any HabitStore,
                makePolicies: @escaping @Sendable () throws -> any PolicyResolver, allowsLocal: Bool, timeoutSeconds: Int = 10,
                width: Int = 8, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.width = max(1, width)
        self.clock = clock
        self.makeStore = makeStore
        self.makePolicies = makePolicies
        self.allowsLocal = allowsLocal
        self.timeoutSeconds = timeoutSeconds
        self.log = log
    }

    /// Whether an address may be delivered to.
    func admits(_ address: NetworkAddress) -> Bool { allowsLocal || address.isPublic }

    /// Refuses a URL whose host resolves to no address deliveries may go to (what `POST
    /// /v1/webhooks` checks before it creates one).
    public static func checkAddress(_ url: String, allowsLocal: Bool) throws {
        guard !allowsLocal else { return }
        guard let host = URLComponents(string: url)?.host else { return }
        let addresses: [NetworkAddress]
        do {
            addresses = try NetworkAddress.resolve(host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")))
        } catch HTTPClientError.unreachable(let why) {
            throw UseCaseError.invalidWebhook(reason: why)
        }
        guard !addresses.isEmpty, addresses.allSatisfy(\.isPublic) else {
            throw UseCaseError.invalidWebhook(reason: "\(host) is a loopback or private address; a server started with --allow-local-webhooks delivers there")
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
        }
        thread.name = "stackday.webhooks"
        self.thread = thread
        thread.start()
    }

    /// Stops after the pass under way.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        running = false
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

    /// Starts each free user's turn (at most `width` attempts at once) and settles the attempts
    /// that ended; with `waiting`, goes on until nothing is due. Returns how many were started.
    func deliverDue(waiting: Bool, limit: Int = 200) throws -> Int {
        let store = try base()
        var started = 0
        repeat {
            try settleEnded(in: store)
            let busy = attempts.withLock { $0.users }
            var turns: [(user: String, delivery: WebhookDelivery, webhook: Webhook)] = []
            for delivery in try store.read({ tx in try tx.webhooks?.due(at: clock.now, limit: limit) ?? [] }) {
                guard busy.count + turns.count < width else { break }
                guard let webhook = try store.read({ try $0.webhooks?.webhook(id: delivery.webhookID) }), !busy.contains(webhook.user) else { continue }
                turns.append((webhook.user, delivery, webhook))
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
                    let (status, error) = send(turn.delivery, to: turn.webhook)
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
            let settled = ManageWebhooks.settle(attempt.delivery, status: attempt.status, error: attempt.error, at: clock.now)
            try store.write { tx in try tx.webhooks?.update(settled) }
            _ = attempts.withLock { $0.users.remove(attempt.user) }
        }
    }

    /// One attempt: the answer's status, or why there was none.
    private func send(_ delivery: WebhookDelivery, to webhook: Webhook) -> (status: Int?, error: String?) {
        guard let url = URLComponents(string: webhook.url), let host = url.host, let scheme = url.scheme?.lowercased() else {
            return (nil, "the url is not one this server can send to")
        }
        let tls = scheme == "https"
        let body = Array(delivery.body.utf8)
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
        let message = connection.post(target, headers: [
            ("User-Agent", "StackDay-Webhook/1"), ("Content-Type", "application/json"), ("X-StackDay-Event", delivery.event.rawValue),
            ("X-StackDay-Delivery", delivery.id.uuidString.lowercased()), ("X-StackDay-Signature", WebhookSignature.header(body: body, secret: webhook.secret)),
        ], body: body)
        do {
            let answer = try HTTPClientAnswer(parsing: try connection.exchange(message, socket: socket, admit: admits))
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
