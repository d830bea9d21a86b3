import Foundation
import StackDay
import StackDayApplication
import StackDayEngine
import StackDayExchange

/// The `/v1/…` endpoints for one authenticated user: each parses its path and fields, calls the
/// application layer, and answers the view's JSON (the JSON the matching `--json` command prints).
struct HabitRoutes {
    let app: Application
    let user: User
    let request: HTTPRequest
    let users: ManageUsers
    /// Whether this server speaks TLS itself (links it makes are https://).
    var tls = false
    /// Whether webhooks may be sent to loopback and private addresses (`--allow-local-webhooks`).
    var allowsLocalWebhooks = false
    /// Whether push subscriptions may name a push service on loopback or a private address (`--allow-local-push`).
    var allowsLocalPush = false
    /// The paired device whose token made the request; nil for the account's own token.
    var device: UUID?

    /// Who a push subscription made by this request is held by: the device, or the account (nil).
    var pushHolder: String? { device.map { PushSubscription.holder(device: $0) } }

    typealias Handler = @Sendable (HabitRoutes, [String]) throws -> HTTPResponse
    /// An endpoint whose credential is in its path or body, answered before authentication.
    typealias OpenHandler = @Sendable (OpenRequest, [String]) throws -> HTTPResponse

    /// A route's handler with what the API document says of it: no route without its entry.
    struct Endpoint: Sendable {
        /// How a request to it is let in.
        enum Access: Sendable {
            /// With a bearer token, as its user (`Authentication`).
            case token(Handler)
            /// With the credential the request carries in its path or body (a feed's token, a
            /// pairing code); a wrong one counts as a failed authentication.
            case open(OpenHandler)
        }

        let doc: EndpointDoc
        let access: Access
        /// What only the account may do, when the endpoint is one (`DeviceRights` decides).
        var action: AccountAction?

        /// The endpoint, as one only the account may use.
        func only(_ action: AccountAction) -> Endpoint {
            var copy = self
            copy.action = action
            return copy
        }

        init(_ doc: EndpointDoc, _ run: @escaping Handler) {
            self.doc = doc
            self.access = .token(run)
        }

        init(_ doc: EndpointDoc, open run: @escaping OpenHandler) {
            self.doc = doc
            self.access = .open(run)
        }

        /// Answered without a token (the API document says so).
        var isOpen: Bool {
            if case .open = access { return true }
            return false
        }
    }

    /// What an endpoint answered without a token works with: the request and a pooled context set.
    struct OpenRequest {
        let request: HTTPRequest
        let contexts: OwnerContexts
        let clock: any StackDay.Clock
        /// Where a wrong credential is counted.
        let failures: Throttle
        /// A user's Lua state holding more after the request is dropped.
        let stateBytes: Int
        /// The user the credential turned out to be (for the access log).
        let authenticated: (String) -> Void

        /// The server-wide context (no user's zone): for finding whose credential this is.
        var base: HabitContext {
            get throws { try contexts.baseContext(clock: clock) }
        }
    }

    /// The request's query arguments and JSON body as the request `R` (the one decoding step of
    /// every endpoint; a field `R` does not declare is refused).
    func decode<R: RequestType>(_ type: R.Type = R.self) throws -> R { try Self.decode(request) }

    static func decode<R: RequestType>(_ request: HTTPRequest, as type: R.Type = R.self) throws -> R {
        try RequestFields(query: request.query, body: request.body).decode(R.self)
    }

    /// The endpoints below `/v1`: method, path pattern (`:` marks a segment captured in order),
    /// handler; `ServerRoute.router` matches them with the pages.
    static let routes: [(method: String, pattern: String, handler: Endpoint)] = [
        ("GET", "habits", Endpoint(EndpointDoc("List the habits, in creation order, a page at a time", query: ListHabitsRequest.self, answer: "HabitList")) { r, _ in
            try r.habitPage()
        }),
        ("POST", "habits", Endpoint(EndpointDoc("Create a habit", body: .json(CreateHabitRequest.self), status: 201, answer: "Habit")) { r, _ in
            let view = try r.app.createHabit(r.decode())
            return .created(view.json, at: "/v1/habits/" + PagePaths.segment(view.habit.name))
        }),
        ("GET", "habits/:name", Endpoint(EndpointDoc("A habit with its figures (422 with its policy's error when one fails)", answer: "HabitDetail")) { r, names in
            let view = try r.app.showHabit(names[0])
            // A policy that failed for this habit: its definition with the error, as `habit show` prints it.
            return .json(view.json, status: view.failure == nil ? 200 : 422)
        }),
        ("PATCH", "habits/:name", Endpoint(EndpointDoc("Rename a habit, or change its unit, start or rules (from a day)", body: .json(EditHabitRequest.self), answer: "Habit")) { r, names in .json(try r.app.editHabit(names[0], r.decode()).json) }),
        ("DELETE", "habits/:name", Endpoint(EndpointDoc("Delete a habit with its records and skips", status: 204, answer: nil)) { r, names in
            _ = try r.app.deleteHabit(names[0])
            return HTTPResponse(status: 204, contentType: "application/json", body: [])
        }),
        ("POST", "habits/:name/archive", Endpoint(EndpointDoc("Stop tracking a habit after a day", body: .json(ArchiveRequest.self), answer: "Habit")) { r, names in .json(try r.app.archiveHabit(names[0], r.decode()).json) }),
        ("POST", "habits/:name/unarchive", Endpoint(EndpointDoc("Resume tracking an archived habit", answer: "Habit")) { r, names in
            _ = try r.decode(EmptyRequest.self)
            return .json(try r.app.unarchiveHabit(names[0]).json)
        }),
        ("POST", "habits/:name/records", Endpoint(EndpointDoc("Record an amount for a day (or for the day an instant falls on)", body: .json(RecordRequest.self), status: 201, answer: "Completion")) { r, names in
            let view = try r.app.record(names[0], r.decode())
            let day = view.completion.completedOn.iso
            return .created(view.json, at: "/v1/habits/\(PagePaths.segment(names[0]))/records?from=\(day)&to=\(day)")
        }),
        ("GET", "habits/:name/records", Endpoint(EndpointDoc("A habit's records, a page at a time", query: RecordPageRequest.self, answer: "RecordPage")) { r, names in
            try r.recordPage(names[0])
        }),
        ("DELETE", "habits/:name/records/latest", Endpoint(EndpointDoc("Remove the latest record of a day", query: UndoRequest.self, answer: "Completion")) { r, names in .json(try r.app.undo(names[0], r.decode()).json) }),
        ("POST", "habits/:name/skips", Endpoint(EndpointDoc("Excuse a day or a range of days", body: .json(SkipRequest.self), status: 201, answer: "Skips")) { r, names in
            .created(try r.app.skip(names[0], r.decode()).json, at: "/v1/habits/\(PagePaths.segment(names[0]))/records")
        }),
        ("DELETE", "habits/:name/skips", Endpoint(EndpointDoc("Take back the skips of a day or a range of days", query: SkipRequest.self, answer: "Unskips")) { r, names in .json(try r.app.unskip(names[0], r.decode()).json) }),
        ("GET", "today", Endpoint(EndpointDoc("Each active habit today", answer: "Today")) { r, _ in
            _ = try r.decode(EmptyRequest.self)
            return .json(try r.app.todayView().json)
        }),
        ("GET", "stats", Endpoint(EndpointDoc("Every habit's figures", query: StatsRequest.self, answer: "Stats")) { r, _ in .json(try r.app.stats(r.decode()).json) }),
        ("GET", "report/week", Endpoint(EndpointDoc("The weekly report: text, or JSON with format=json", query: WeekReportQuery.self, answer: "WeekReport", text: true)) { r, _ in
            let asked = try r.decode(WeekReportQuery.self)
            let view = try r.app.weekReport(asked.report)
            return asked.json ? .json(view.json) : .text(view.text + "\n")
        }),
        ("GET", "calendar/:name", Endpoint(EndpointDoc("A habit's days over a range", query: CalendarRequest.self, answer: "Calendar")) { r, names in .json(try r.app.calendar([names[0]], r.decode()).json) }),
        ("GET", "habits/:name/explain", Endpoint(EndpointDoc("The streak fold step by step", query: ExplainRequest.self, answer: "Explanation")) { r, names in .json(try r.app.explain(names[0], r.decode()).json) }),
        ("GET", "habits/:name/revisions", Endpoint(EndpointDoc("A habit's rule revisions", answer: "Revisions")) { r, names in .json(try r.app.revisions(names[0]).json) }),
        ("POST", "habits/:name/rollback", Endpoint(EndpointDoc("Take back the latest rule change as if it had never been made ({}), or every revision after `to`; `from` keeps the days before it", body: .json(RollbackRequest.self), status: 201, answer: "RulesAnswer")) { r, names in
            .created(try r.app.rollback(names[0], r.decode()).json, at: "/v1/habits/\(PagePaths.segment(names[0]))/revisions")
        }),
        ("POST", "habits/:name/simulate", Endpoint(EndpointDoc("A habit's figures under a proposed policy; writes nothing", body: .json(SimulateRequest.self), answer: "Simulation")) { r, names in .json(try r.app.simulate(names[0], r.decode()).json) }),
        ("GET", "groups", Endpoint(EndpointDoc("List the groups with their members and rules", answer: "GroupList")) { r, _ in
            _ = try r.decode(EmptyRequest.self)
            return .json(try r.app.listGroups().json)
        }),
        ("POST", "groups", Endpoint(EndpointDoc("Make a group of habits, judged by a group rule", body: .json(CreateGroupRequest.self), status: 201, answer: "Group")) { r, _ in
            let view = try r.app.createGroup(r.decode())
            return .created(view.json, at: "/v1/groups/" + PagePaths.segment(view.group.name))
        }),
        ("GET", "groups/:name", Endpoint(EndpointDoc("A group with its figures today (422 with its rule's error when one fails)", answer: "GroupDetail")) { r, names in
            _ = try r.decode(EmptyRequest.self)
            let view = try r.app.showGroup(names[0])
            return .json(view.json, status: view.failed ? 422 : 200)
        }),
        ("PATCH", "groups/:name", Endpoint(EndpointDoc("Rename a group, or change its members or rules (from a day)", body: .json(EditGroupRequest.self), answer: "Group")) { r, names in
            .json(try r.app.editGroup(names[0], r.decode()).json)
        }),
        ("GET", "groups/:name/calendar", Endpoint(EndpointDoc("A group's days over a range (422 with its rule's error when one fails)", query: CalendarRequest.self, answer: "GroupCalendar")) { r, names in
            let view = try r.app.groupCalendar(names[0], r.decode())
            if case .failure = view.result { return .json(view.json, status: 422) }
            return .json(view.json)
        }),
        ("GET", "groups/:name/explain", Endpoint(EndpointDoc("A group's streak fold step by step", query: ExplainRequest.self, answer: "GroupExplanation")) { r, names in
            .json(try r.app.explainGroup(names[0], r.decode()).json)
        }),
        ("POST", "groups/:name/simulate", Endpoint(EndpointDoc("A group's figures under a proposed group or streak rule; writes nothing", body: .json(SimulateRequest.self), answer: "GroupSimulation")) { r, names in
            .json(try r.app.simulateGroup(names[0], r.decode()).json)
        }),
        ("POST", "groups/:name/done", Endpoint(EndpointDoc("Record each member still open today up to its goal; the group after", answer: "GroupDetail")) { r, names in
            _ = try r.decode(EmptyRequest.self)
            let view = try r.app.completeGroup(names[0])
            return .json(view.json, status: view.failed ? 422 : 200)
        }),
        ("DELETE", "groups/:name", Endpoint(EndpointDoc("Remove a group (its habits stay)", status: 204, answer: nil)) { r, names in
            _ = try r.app.removeGroup(names[0])
            return HTTPResponse(status: 204, contentType: "application/json", body: [])
        }),
        ("POST", "groups/:name/rollback", Endpoint(EndpointDoc("Take back a group's latest change of members or rules; `from` keeps the days before it", body: .json(RollBackGroupRequest.self), answer: "Group")) { r, names in
            .json(try r.app.rollBackGroup(names[0], r.decode()).json)
        }),
        ("GET", "policies", Endpoint(EndpointDoc("Every policy this user can name, where each is found, the one in use first", answer: "PolicyList")) { r, _ in .json(try r.app.policyList().json) }),
        ("GET", "policies/:name", Endpoint(EndpointDoc("The script a name resolves to for this user, with its source and where it was found", answer: "PolicyScript")) { r, names in .json(try r.app.policyDetail(names[0]).json) }),
        ("PUT", "policies/:name", Endpoint(EndpointDoc("Check a policy's Lua source and install it (422 with every failing check)", body: .lua, status: 201, answer: "PolicyScript")) { r, names in
            guard let source = String(validating: r.request.body, as: UTF8.self), !source.isEmpty else {
                throw APIError.badRequest("the body must be the policy's Lua source, as UTF-8 text")
            }
            do {
                return .created(try r.app.install(names[0], source: source).json, at: "/v1/policies/" + PagePaths.segment(names[0]))
            } catch let refusal as PolicyRefusal {
                return .json(RefusalView(refusal: refusal).json, status: 422)
            }
        }.only(.managePolicies)),
        ("GET", "policies/:name/shares", Endpoint(EndpointDoc("Whom this user shares an installed script with", answer: "PolicyOffers")) { r, names in
            .json(try r.app.shares(of: names[0]).json)
        }),
        ("POST", "policies/:name/shares", Endpoint(EndpointDoc("Share an installed script with another user, who sees it as shared by this one", body: .json(ShareRequest.self), status: 201, answer: "PolicyOffer")) { r, names in
            .created(try r.app.share(names[0], r.decode()).json, at: "/v1/policies/\(PagePaths.segment(names[0]))/shares")
        }.only(.managePolicies)),
        ("DELETE", "policies/:name/shares/:user", Endpoint(EndpointDoc("Stop sharing a script with a user", status: 204, answer: nil)) { r, names in
            try r.app.unshare(names[0], with: names[1])
            return HTTPResponse(status: 204, contentType: "application/json", body: [])
        }.only(.managePolicies)),
        ("POST", "sync", Endpoint(EndpointDoc("Push a device's changes and pull the server's since a position (docs/sync.md)", body: .schema("Sync"), answer: "SyncAnswer")) { r, _ in
            // Reading the page, the figures after a push and the answer run at a lower priority than
            // the requests people wait on (`BackgroundLane`). Taking the page runs on the worker: it
            // holds the store's writer, which a thread at the lower priority would keep from another
            // user's record for as long as the cores are busy elsewhere.
            let lane = BackgroundLane.shared
            let request = try lane.run { try r.app.syncRequest(r.request.body) }
            let answer = try r.app.sync(request)
            return .json(try lane.run {
                r.app.prepareFigures(after: request)
                return answer.json
            })
        }),
        ("GET", "settings", Endpoint(EndpointDoc("The user's settings", answer: "User")) { r, _ in .json(UserView(r.user).json) }),
        ("PUT", "settings", Endpoint(EndpointDoc("Change the time zone, day start, language or week start", body: .json(SettingsRequest.self), answer: "User")) { r, _ in try r.settings() }.only(.changeSettings)),
        ("GET", "feeds/:file", Endpoint(EndpointDoc("The user's habits as an iCalendar feed (text/calendar), a year ahead: the path `stackday user feed NAME` or the settings page gives, token included (no header needed)",
                                                answer: nil), open: { open, files in try feed(files[0], open) })),
        ("POST", "devices/pairing", Endpoint(EndpointDoc("A one-time code that connects a device (8 characters, good for 10 minutes and one use)", status: 201, answer: "Pairing")) { r, _ in
            _ = try r.decode(EmptyRequest.self)
            return .created(try PairingOffer(for: r.user.name, request: r.request, context: r.app.context, tls: r.tls).json, at: "/v1/devices/pairing")
        }.only(.pairDevice)),
        ("POST", "devices/pair", Endpoint(EndpointDoc("Exchange a pairing code for a device token of the device's own (no token needed)", body: .json(PairRequest.self), status: 201,
                                                      answer: "PairedDevice"), open: { open, _ in try pair(open.request, context: open.base) })),
        ("GET", "devices", Endpoint(EndpointDoc("The devices connected by a code, the latest first", answer: "DeviceList")) { r, _ in
            _ = try r.decode(EmptyRequest.self)
            let devices = try ManageDevices(context: r.app.context).devices(of: r.user.name)
            return .json(.object(["devices": .array(devices.map { DeviceView($0).json })]))
        }),
        ("DELETE", "devices/:id", Endpoint(EndpointDoc("Revoke a device's token (its data stays)", status: 204, answer: nil)) { r, ids in
            guard let id = UUID(uuidString: ids[0]) else { throw UseCaseError.deviceNotFound(id: ids[0]) }
            try ManageDevices(context: r.app.context).revoke(id, of: r.user.name)
            return HTTPResponse(status: 204, contentType: "application/json", body: [])
        }.only(.revokeDevice)),
        ("POST", "webhooks", Endpoint(EndpointDoc("Send events to an address: record, undo, skip, day.missed, streak.broken, streak.milestone (the secret is in this answer only)",
                                                  body: .json(CreateWebhookRequest.self), status: 201, answer: "Webhook")) { r, _ in
            let view = try r.app.createWebhook(r.decode()) { try WebhookSender.checkAddress($0, allowsLocal: r.allowsLocalWebhooks) }
            return .created(view.json, at: "/v1/webhooks/" + view.webhook.id.uuidString.lowercased() + "/deliveries")
        }.only(.manageWebhooks)),
        ("GET", "webhooks", Endpoint(EndpointDoc("The user's webhooks, without their secrets", answer: "WebhookList")) { r, _ in
            _ = try r.decode(EmptyRequest.self)
            return .json(try r.app.webhooks())
        }.only(.manageWebhooks)),
        ("DELETE", "webhooks/:id", Endpoint(EndpointDoc("Delete a webhook and its queue", status: 204, answer: nil)) { r, ids in
            try r.app.deleteWebhook(ids[0])
            return HTTPResponse(status: 204, contentType: "application/json", body: [])
        }.only(.manageWebhooks)),
        ("GET", "webhooks/:id/deliveries", Endpoint(EndpointDoc("A webhook's latest 100 deliveries, the newest first: state, attempts, last status or error", answer: "WebhookDeliveryList")) { r, ids in
            _ = try r.decode(EmptyRequest.self)
            return .json(try r.app.webhookDeliveries(ids[0]))
        }.only(.manageWebhooks)),
        ("GET", "push/key", Endpoint(EndpointDoc("The server's VAPID public key, for PushManager.subscribe's applicationServerKey", answer: "PushKey")) { r, _ in
            _ = try r.decode(EmptyRequest.self)
            let key = try PushKeyring.key(in: r.app.context.store, at: r.app.context.clock.now)
            return .json(.object(["publicKey": .string(key.publicKeyText)]))
        }),
        ("POST", "push/subscriptions", Endpoint(EndpointDoc("Keep a browser's push subscription, for reminders on this device (the same endpoint again replaces it)",
                                                            body: .json(PushSubscriptionRequest.self), status: 201, answer: "PushSubscription")) { r, _ in
            let allowsLocal = r.allowsLocalPush
            let view = try r.app.subscribePush(r.decode(), holder: r.pushHolder) { try WebhookSender.checkAddress($0, allowsLocal: allowsLocal, push: true) }
            return .created(view.json, at: "/v1/push/subscriptions")
        }),
        ("GET", "push/subscriptions", Endpoint(EndpointDoc("The push subscriptions this token sees: a device its own, the account's token all", answer: "PushSubscriptionList")) { r, _ in
            _ = try r.decode(EmptyRequest.self)
            return .json(try r.app.pushSubscriptions(holder: r.pushHolder))
        }),
        ("DELETE", "push/subscriptions/:id", Endpoint(EndpointDoc("Remove a push subscription (a device only its own)", status: 204, answer: nil)) { r, ids in
            try r.app.unsubscribePush(ids[0], holder: r.pushHolder)
            return HTTPResponse(status: 204, contentType: "application/json", body: [])
        }),
        ("POST", "push/test", Endpoint(EndpointDoc("Send a test message to the push subscriptions this token sees, now", answer: "Queued")) { r, _ in
            _ = try r.decode(EmptyRequest.self)
            return .json(try r.app.pushTest(holder: r.pushHolder))
        }),
        ("POST", "push/later", Endpoint(EndpointDoc("Remind of a habit again in an hour, if it is still open then (a notification's Later)",
                                                    body: .json(PushLaterRequest.self), answer: "Queued")) { r, _ in
            .json(try r.app.pushLater(r.decode()))
        }),
        ("PUT", "settings/password", Endpoint(EndpointDoc("Set the password for signing in on the web (the current one as old, once there is one)", body: .json(PasswordRequest.self), answer: "User")) { r, _ in
            try r.password()
        }.only(.changePassword)),
    ]

    /// Answers the request as the route it reached (`ServerRoute.match`) says, once authenticated.
    func answer(_ reached: Router<Endpoint>.Match) throws -> HTTPResponse {
        switch reached {
        case .found(let endpoint, let captures):
            guard case .token(let run) = endpoint.access else { throw APIError.notFound("no such endpoint: \(request.path)") }
            return try run(self, captures)
        case .methodNotAllowed(let allowed): throw APIError.methodNotAllowed(request.method, allowed: allowed)
        case .notFound: throw APIError.notFound("no such endpoint: \(Self.shownPath(request.path))")
        }
    }

    /// A request's path as an error names it: decoded where it decodes.
    static func shownPath(_ path: String) -> String { PercentDecoding.decoded(path) ?? path }

    /// `GET /v1/feeds/{token}.ics`: the user's habits as an iCalendar feed (`CalendarFeedView`),
    /// with an `ETag` of its text, so that an hourly fetch of an unchanged feed is a 304. The token
    /// in the path is the credential, since calendar apps send no headers.
    static func feed(_ file: String, _ open: OpenRequest) throws -> HTTPResponse {
        guard file.hasSuffix(".ics"), let account = try ManageUsers(context: try open.base).user(feedToken: String(file.dropLast(4))) else {
            open.failures.record(open.request.address)
            throw APIError.notFound("no such feed: ask for the address again (Settings › Calendar feed, or stackday user feed NAME)")
        }
        open.authenticated(account.name)
        let context = try open.contexts.context(for: account.name, clock: open.clock, boundary: account.boundary)
        defer { open.contexts.release(account.name, holdingMoreThan: open.stateBytes) }
        let text = try Application(context: context).calendarFeed(title: "StackDay · \(account.name)").text
        let etag = "W/\"" + ConditionalAnswer.fnv(text) + "\""
        let type = "text/calendar; charset=utf-8"
        if let unchanged = ConditionalAnswer.unchanged(open.request, etag: etag, contentType: type) { return unchanged }
        return ConditionalAnswer.versioned(HTTPResponse.text(text, contentType: type), etag: etag)
    }

    /// `GET /v1/habits`: a page of habits (`Application.habitPage`) and the next page's path.
    func habitPage() throws -> HTTPResponse {
        let asked = try decode(ListHabitsRequest.self)
        let page = try app.habitPage(asked)
        var next: String?
        if let cursor = page.next {
            var query = [(ListHabitsRequest.cursor.key, cursor), (ListHabitsRequest.limit.key, String(asked.limit))]
            switch asked.selection {
            case .active: query.append((ListHabitsRequest.active.key, "true"))
            case .archived: query.append((ListHabitsRequest.archived.key, "true"))
            case .all: break
            }
            next = "/v1/habits?" + Self.query(query)
        }
        return .json(HabitListView(habits: page.habits, next: next).json)
    }

    /// `key=value&…`, each percent-encoded.
    static func query(_ pairs: [(String, String)]) -> String {
        pairs.map { "\($0.0)=\(PagePaths.segment($0.1))" }.joined(separator: "&")
    }

    /// `GET /v1/habits/{name}/records`: `limit` records (default 100, at most 1000) after
    /// `cursor`, in day order, then recorded order, then id: a record that existed when paging
    /// began is neither repeated nor skipped, whatever is written meanwhile.
    func recordPage(_ name: String) throws -> HTTPResponse {
        let asked = try decode(RecordPageRequest.self)
        let page = try app.recordPage(name, asked)
        var next: JSONValue = .null
        if let cursor = page.next {
            var query = [(RecordPageRequest.cursor.key, cursor), (RecordPageRequest.limit.key, String(asked.limit))]
            if let from = asked.days.from { query.append((RecordLogRequest.from.key, from.iso)) }
            if let to = asked.days.to { query.append((RecordLogRequest.to.key, to.iso)) }
            next = .string("/v1/habits/\(PagePaths.segment(name))/records?" + Self.query(query))
        }
        return .json(.object([
            "habit": .string(page.habit.name), "unit": .string(page.habit.unit), "from": .string(page.days.first.iso), "to": .string(page.days.last.iso),
            "records": .array(page.records.map { CompletionView(completion: $0, habit: name).json }), "next": next,
        ]))
    }

    /// `scheme://host[:port]` as the client reached the server: https when TLS is on here or a
    /// trusted proxy says so; nil for a `Host` that is not a plain host name or address.
    static func baseURL(_ request: HTTPRequest, tls: Bool) -> String? {
        guard let host = request.host, !host.isEmpty, host.count <= 255,
              host.unicodeScalars.allSatisfy({ $0.properties.isASCIIHexDigit || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ".-:[]".unicodeScalars.contains($0) })
        else { return nil }
        return (tls || request.forwardedProto == "https" ? "https://" : "http://") + host
    }

    /// `POST /v1/devices/pair` `{"code", "name"}`: a device token of its own (shown only now).
    static func pair(_ request: HTTPRequest, context: HabitContext) throws -> HTTPResponse {
        let asked = try decode(request, as: PairRequest.self)
        let paired = try ManageDevices(context: context).pair(code: asked.code, name: asked.name)
        return .json(.object(["token": .string(paired.token.text), "device": DeviceView(paired.device).json]), status: 201)
    }

    /// `PUT /v1/settings/password` `{"old", "new"}`: `old` must be the current password once the
    /// user has one; a wrong one is 401 and counts toward the address's failures.
    func password() throws -> HTTPResponse {
        let asked = try decode(PasswordRequest.self)
        try users.setPassword(of: user.name, to: asked.new, old: asked.old, hasher: try Argon2idHasher())
        return .json(UserView(try users.user(named: user.name)).json)
    }

    func settings() throws -> HTTPResponse {
        let asked = try decode(SettingsRequest.self)
        let configured = try users.configure(user.name, timeZone: asked.timeZone ?? user.timeZone, dayStart: asked.dayStart ?? user.dayStart,
                                             language: asked.language, weekStart: asked.weekStart)
        return .json(UserView(configured).json)
    }
}
