import Foundation
import StackDay
import StackDayApplication
import StackDayEngine
import StackDayExchange

/// The web app: sign-in and sessions, today (`/`), a habit's page (`/habits/{name}`), and the
/// form posts that change things, each answered with a redirect back (or the page again with
/// the error). A session is a random id in an `HttpOnly; SameSite=Lax` cookie, never the token;
/// every POST must carry the session's CSRF token and, when the browser sends an `Origin`, come
/// from this server.
struct PageRoutes {
    static let cookie = "stackday_session"
    /// The device cookie: a browser that signed in to an account carries its mark (an HMAC of the
    /// name under `PageOptions.deviceCookieKey`) for a year, and failed sign-ins from elsewhere
    /// never slow it (`SignInLock`).
    static let knownCookie = "stackday_known"
    /// How long a device cookie lasts: `Max-Age` counts seconds, and a year of them is enough.
    static let knownCookieSeconds = 365 * 24 * 3600

    let request: HTTPRequest
    let clock: any StackDay.Clock
    let options: PageOptions
    /// Where a form post's `Idempotency-Key` is kept (nil: keys are not honoured).
    var idempotency: Idempotency? = nil

    /// The session id a cookie carries.
    var sessionCookie: String? { cookie(named: Self.cookie) }

    /// The value of the request's cookie `name`.
    func cookie(named name: String) -> String? {
        guard let header = request.cookie else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.trimmingCharacters(in: .whitespaces)
            if pair.hasPrefix(name + "=") { return String(pair.dropFirst(name.count + 1)) }
        }
        return nil
    }

    /// The device cookie's value for account `name`.
    func knownMark(_ name: String) -> String {
        HexText.lowercase(WebhookSignature.hmacSHA256(Array(name.precomposedStringWithCanonicalMapping.utf8), key: options.deviceCookieKey))
    }

    /// Whether the request came over TLS (directly, or as a proxy in front says).
    var secure: Bool { options.cookieSecure || request.forwardedProto?.lowercased() == "https" }

    /// An `Origin` that is not this server's.
    var crossOrigin: Bool {
        guard let origin = request.origin else { return false }
        guard let host = request.host else { return true }
        return origin != "http://\(host)" && origin != "https://\(host)"
    }

    /// A form post's context: the form, the signed-in page, and the session it came in.
    struct FormPost {
        let routes: PageRoutes
        let form: FormBody
        let page: Page
        let sessions: ManageSessions
        let cookie: String
        /// The form's fields for the application (`PageRoutes.fields`).
        let fields: RequestFields
        /// Where to go after the change: the form's `back` (a path of this server), else nil.
        let back: String?
    }

    /// What a form post did: go to a page, or an answer of its own.
    enum FormOutcome {
        case redirect(String)
        case answer(HTTPResponse)
    }

    /// How a page route is reached.
    enum Endpoint: Sendable {
        /// Answered to anyone: the stylesheet and script, signing in, connecting by a code.
        case open(@Sendable (PageRoutes, OwnerContexts, inout String?) throws -> HTTPResponse)
        /// A page of the signed-in user.
        case page(@Sendable (Page, [String]) throws -> HTTPResponse)
        /// A form of the signed-in user, its CSRF token checked: a change, then a redirect (or the
        /// page again with the error, writing nothing).
        case form(@Sendable (FormPost, [String]) throws -> FormOutcome)
        /// A form only the account may post (`AccountAction`): a browser signed in as a paired
        /// device (by `/pair`) is refused it, as the device's token is on the API (`DeviceRights`).
        case account(AccountAction, @Sendable (FormPost, [String]) throws -> FormOutcome)
    }

    /// The web app's routes; `/` is the empty pattern. `ServerRoute.router` matches them with the API's.
    static let routes: [(method: String, pattern: String, handler: Endpoint)] = [
        ("GET", "", .page { page, _ in
            .html(try page.today().render(user: page.user.name))
        }),
        ("GET", "today.html", .page { page, _ in
            // The cards alone, for the script's polling, with their version.
            let today = try page.today()
            if page.request.ifNoneMatch == today.etag { return HTTPResponse(status: 304, contentType: "text/html; charset=utf-8", body: []) }
            var response = HTTPResponse.html(today.rows())
            response.headers = [("ETag", today.etag)]
            return response
        }),
        ("GET", "policies", .page { page, _ in .html(try page.policies(name: nil, source: nil, refusal: nil).render(user: page.user.name)) }),
        // "Try on my history": the habit's rule lab with the policy chosen.
        ("GET", "policies/try", .page { page, _ in
            let habit = try FindHabit(context: page.app.context)(named: page.request.argument("habit") ?? "")
            let policy = page.request.argument("policy") ?? ""
            return .redirect(to: "/habits/" + PagePaths.segment(habit.name) + "?lab=1&policy=" + PagePaths.segment(policy) + "#lab")
        }),
        ("GET", "settings", .page { page, _ in .html(try page.settings().render()) }),
        ("GET", "habits/:name", .page { page, names in .html(try page.habit(names[0]).render(user: page.user.name)) }),
        ("GET", "groups/:name", .page { page, names in .html(try page.group(names[0]).render(user: page.user.name)) }),
        ("GET", "app.css", .open { _, _, _ in asset(PageAssets.stylesheet, type: "text/css; charset=utf-8") }),
        ("GET", "app.js", .open { _, _, _ in asset(PageAssets.script, type: "text/javascript; charset=utf-8") }),
        ("GET", "sw.js", .open { _, _, _ in
            // Checked for a new version on every visit, as browsers do for a worker.
            var worker = asset(PageAssets.serviceWorker, type: "text/javascript; charset=utf-8")
            worker.headers = [("Cache-Control", "no-cache")]
            return worker
        }),
        ("GET", "manifest.webmanifest", .open { _, _, _ in asset(PageAssets.manifest, type: "application/manifest+json") }),
        ("GET", "icon.svg", .open { _, _, _ in asset(PageAssets.icon, type: "image/svg+xml") }),
        ("POST", "session", .open { routes, contexts, user in try routes.signIn(contexts, user: &user) }),
        ("GET", "pair", .open { routes, contexts, user in try routes.pair(contexts, user: &user) }),
        ("POST", "pair", .open { routes, contexts, user in try routes.pair(contexts, user: &user) }),
        ("POST", "session/end", .form { post, _ in
            try post.sessions.end(post.cookie)
            return .answer(.redirect(to: "/", setCookie: post.routes.expiredCookie))
        }),
        ("POST", "settings", .account(.changeSettings) { post, _ in
            let page = post.page
            let week = try post.fields[SettingsRequest.weekStartsOn]
            _ = try ManageUsers(context: page.app.context).configure(page.user.name, timeZone: page.user.timeZone, dayStart: page.user.dayStart,
                                                                     language: week == nil ? post.form["language"] ?? "" : post.form["language"],
                                                                     weekStart: week)
            return .redirect(post.back ?? "/")
        }),
        ("POST", "settings/feed", .account(.manageFeeds) { post, _ in
            _ = try ManageUsers(context: post.page.app.context).feedToken(of: post.page.user.name, rotate: post.page.user.feedToken != nil)
            return .redirect("/settings")
        }),
        ("POST", "settings/devices/pair", .account(.pairDevice) { post, _ in
            // The code is shown once, on the page answering the post (a redirect would lose it).
            var settings = try post.page.settings()
            settings.pairing = try PairingOffer(for: post.page.user.name, request: post.routes.request, context: post.page.app.context, tls: post.routes.secure)
            var shown = HTTPResponse.html(settings.render(), status: 201)
            shown.headers.append(("Cache-Control", "no-store"))
            return .answer(shown)
        }),
        ("POST", "settings/webhooks", .account(.manageWebhooks) { post, _ in
            // The secret is shown once, on the page answering the post.
            let page = post.page
            let events = post.form.fields.filter { $0.key == CreateWebhookRequest.events.key }.map { JSONValue.string($0.value) }
            let fields = RequestFields(values: [CreateWebhookRequest.url.key: .text(post.form[CreateWebhookRequest.url.key] ?? ""),
                                                CreateWebhookRequest.events.key: .json(.array(events))], surface: .http)
            let allowsLocal = post.routes.options.allowsLocalWebhooks
            let created = try page.app.createWebhook(try fields.decode()) { try WebhookSender.checkAddress($0, allowsLocal: allowsLocal) }
            var settings = try page.settings()
            settings.createdWebhook = created.webhook
            var shown = HTTPResponse.html(settings.render(), status: 201)
            shown.headers.append(("Cache-Control", "no-store"))
            return .answer(shown)
        }),
        ("POST", "settings/webhooks/:id/delete", .account(.manageWebhooks) { post, ids in
            try post.page.app.deleteWebhook(ids[0])
            return .redirect("/settings")
        }),
        ("POST", "settings/push", .form { post, _ in
            // The script fills the subscription in (PushManager.subscribe); a post without it names what is missing.
            let page = post.page
            let request = try RequestFields(values: [
                PushSubscriptionRequest.endpoint.key: .text(post.form["endpoint"] ?? ""),
                PushSubscriptionRequest.keys.key: .json(.object(["p256dh": .string(post.form["p256dh"] ?? ""), "auth": .string(post.form["auth"] ?? "")])),
                PushSubscriptionRequest.name.key: .text(post.form["name"] ?? ""),
            ], surface: .http).decode(PushSubscriptionRequest.self)
            let allowsLocal = post.routes.options.allowsLocalPush
            _ = try page.app.subscribePush(request, holder: page.pushHolder) { try WebhookSender.checkAddress($0, allowsLocal: allowsLocal, push: true) }
            return .redirect("/settings")
        }),
        ("POST", "settings/push/test", .form { post, _ in
            _ = try post.page.app.pushTest(holder: post.page.pushHolder)
            return .redirect("/settings")
        }),
        ("POST", "settings/push/:id/delete", .form { post, ids in
            try post.page.app.unsubscribePush(ids[0], holder: post.page.pushHolder)
            return .redirect("/settings")
        }),
        // A notification's Later: the habit's reminder again in an hour.
        ("POST", "push/later", .form { post, _ in
            _ = try post.page.app.pushLater(PushLaterRequest(RequestFields(values: [PushLaterRequest.habit.key: .text(post.form["habit"] ?? "")], surface: .http)))
            return .redirect("/")
        }),
        ("POST", "settings/devices/:id/revoke", .account(.revokeDevice) { post, ids in
            guard let id = UUID(uuidString: ids[0]) else { throw UseCaseError.deviceNotFound(id: ids[0]) }
            try ManageDevices(context: post.page.app.context).revoke(id, of: post.page.user.name)
            return .redirect("/settings")
        }),
        ("POST", "habits", .form { post, _ in
            _ = try post.page.app.createHabit(try post.page.createRequest(post.form, base: post.fields.removing(RulesFromRequest.from.key)))
            return .redirect(post.back ?? "/")
        }),
        ("POST", "policies", .account(.managePolicies) { post, _ in
            let name = post.form["name"] ?? "", source = (post.form["source"] ?? "").replacingOccurrences(of: "\r\n", with: "\n")
            do {
                _ = try post.page.app.install(name, source: source)
            } catch let refusal as PolicyRefusal {
                return .answer(.html(try post.page.policies(name: name, source: source, refusal: refusal).render(user: post.page.user.name), status: 422))
            }
            return .redirect("/policies?installed=" + PagePaths.segment(name))
        }),
        ("POST", "policies/:name/share", .account(.managePolicies) { post, names in
            let view = try post.page.app.share(names[0], try post.fields.decode())
            return .redirect("/policies?shared=" + PagePaths.segment("\(view.offer.name) → \(view.offer.recipient ?? "")"))
        }),
        ("POST", "groups/:name/apply", .form { post, names in
            // The lab's proposal as the group's next revision; an emptied day field means today.
            let from = SimulateRequest.from.key
            let proposal = post.form[from]?.isEmpty == true ? post.fields.removing(from) : post.fields
            let view = try post.page.app.applyGroupProposal(names[0], try proposal.decode())
            return .redirect("/groups/" + PagePaths.segment(view.group.name) + "#revisions")
        }),
        ("POST", "groups/:name/done", .form { post, names in
            _ = try post.page.app.completeGroup(names[0])
            return .redirect(post.back ?? "/")
        }),
        ("POST", "habits/:name/:action", .form { post, captures in try habitForm(post, name: captures[0], action: captures[1]) }),
    ]

    /// Answers the request as the route it reached (`ServerRoute.match`) says; `segments` is its
    /// decoded path (`/` as none).
    func answer(_ reached: Router<Endpoint>.Match, segments: [String], contexts: OwnerContexts, user: inout String?) throws -> HTTPResponse {
        let method = request.method
        let endpoint: Endpoint, captures: [String]
        switch reached {
        case .found(let found, let values): (endpoint, captures) = (found, values)
        case .methodNotAllowed(let allowed): throw APIError.methodNotAllowed(method, allowed: allowed)
        case .notFound:
            // Without a session, every unknown page is the sign-in page's business.
            if method == "GET", try sessionCookie.flatMap({ try self.sessions(contexts).find($0) }) == nil { return .redirect(to: "/") }
            throw APIError.notFound(method == "POST" ? "no such form: \(request.path)" : "no such page: \(request.path)")
        }
        if case .open(let handler) = endpoint { return try handler(self, contexts, &user) }
        let sessions = try self.sessions(contexts)
        guard let cookie = sessionCookie, let (account, session) = try sessions.find(cookie) else {
            let language = PageLanguage(setting: nil, acceptLanguage: request.acceptLanguage)
            if method == "GET" {
                return segments.isEmpty ? .html(SignInPage(words: PageWords(language: language)).render()) : .redirect(to: "/")
            }
            throw APIError(code: .forbidden, message: "sign in first: this form needs a session")
        }
        user = account.name
        let context = try contexts.context(for: account.name, clock: clock, boundary: account.boundary)
        defer { _ = contexts.release(account.name, holdingMoreThan: 32 << 20) }
        var page = Page(app: Application(context: context), user: account, session: session,
                        words: PageWords(language: PageLanguage(setting: account.language, acceptLanguage: request.acceptLanguage)), request: request)
        page.tls = secure
        switch endpoint {
        case .page(let handler):
            return try handler(page, captures)
        case .account(let action, let handler):
            guard DeviceRights.allows(action, by: session.deviceID, target: captures.first) else {
                throw APIError(code: .forbiddenForDevice, message: "a paired device may not \(action.rawValue): sign in with the account's password or token")
            }
            return try submit(handler)
        case .form(let handler):
            return try submit(handler)
        case .open:
            throw APIError.notFound("no such page: \(request.path)")
        }
        func submit(_ handler: @escaping @Sendable (FormPost, [String]) throws -> FormOutcome) throws -> HTTPResponse {
            let form = FormBody(request.body)
            guard !crossOrigin, form["csrf"] == session.csrfToken else {
                throw APIError(code: .forbidden, message: "the form's CSRF token or origin is not this session's; reload the page and try again")
            }
            let post = FormPost(routes: self, form: form, page: page, sessions: sessions, cookie: cookie,
                                fields: Self.fields(form, except: ["csrf", "back"]), back: form["back"].flatMap(PagePaths.localTarget))
            let run = { try Self.posting(post, segments: segments) { try handler(post, captures) } }
            return try idempotency?.once(request, user: account.name, run) ?? run()
        }
    }

    /// `/habits/{name}/{action}`: a record, an undo, a skip or unskip, a record removed, archiving,
    /// an edit, the lab's proposal applied, a rollback, a move up or down the list.
    private static func habitForm(_ post: FormPost, name: String, action: String) throws -> FormOutcome {
        let (app, fields, back) = (post.page.app, post.fields, post.back)
        let own = "/habits/" + PagePaths.segment(name)
        switch action {
        case "record": _ = try app.record(name, try fields.decode())
        case "undo": _ = try app.undo(name, try fields.decode())
        case "skip": _ = try app.skip(name, try fields.decode())
        case "unskip": _ = try app.unskip(name, try fields.decode())
        case "remove": try app.removeRecord(name, try fields.decode())
        case "archive":
            _ = try app.archiveHabit(name, try fields.decode())
            return .redirect(back ?? own)
        case "unarchive":
            _ = try app.unarchiveHabit(name)
            return .redirect(back ?? own)
        case "edit":
            let edited = try app.editHabit(name, try post.page.editRequest(name, post.form))
            return .redirect("/habits/" + PagePaths.segment(edited.habit.name))
        case "apply":
            // The lab's proposal as a new revision; an emptied day field means today.
            let from = SimulateRequest.from.key
            let proposal = post.form[from]?.isEmpty == true ? fields.removing(from) : fields
            _ = try app.applyProposal(name, try proposal.decode())
            return .redirect(own + "#revisions")
        case "rollback":
            // An emptied day field means the change's own first day.
            let from = RollbackRequest.from.key
            _ = try app.rollback(name, try (post.form[from]?.isEmpty == true ? fields.removing(from) : fields).decode())
            return .redirect(own + "#revisions")
        case "move":
            _ = try app.editHabit(name, try fields.decode())
            return .redirect(own + "#order")
        default: throw APIError.notFound("no such form: \(post.routes.request.path)")
        }
        return .redirect(back ?? "/")
    }

    /// Runs a form's change and answers it: a redirect, or a refused change shown on the page it
    /// came from (the habit's for its forms, else today), writing nothing.
    private static func posting(_ post: FormPost, segments: [String], _ change: () throws -> FormOutcome) throws -> HTTPResponse {
        do {
            switch try change() {
            case .redirect(let target): return .redirect(to: target)
            case .answer(let response): return response
            }
        } catch let error as APIError {
            throw error
        } catch {
            let view = ErrorView(error, requestCode: .badRequest)
            let status = StackDayAPI.status(of: view.code)
            let page = post.page
            let message = page.words.message(of: error)
            if segments.count == 3, segments[0] == "habits",
               (post.back ?? "").hasPrefix("/habits/") || ["edit", "archive", "unarchive", "apply", "rollback", "move"].contains(segments[2]),
               let html = try? page.habit(segments[1]).render(user: page.user.name, notice: message) {
                return .html(html, status: status)
            }
            if segments.count == 3, segments[0] == "groups", segments[2] == "apply" || (post.back ?? "").hasPrefix("/groups/"),
               let html = try? page.group(segments[1]).render(user: page.user.name, notice: message) {
                return .html(html, status: status)
            }
            return .html(try page.today().render(user: page.user.name, notice: message), status: status)
        }
    }

    /// The form's fields for the application, but the page's own (`csrf`, `back`) and the
    /// policy fields (`ROLEParam.…`), which `Page.ruleFields` reads.
    static func fields(_ form: FormBody, except: Set<String>) -> RequestFields {
        var values: [String: RequestFields.Value] = [:]
        for (key, value) in form.fields where !except.contains(key) && !key.contains("Param.") && !PolicyRole.habitRoles.map(\.rawValue).contains(key) {
            values[key] = .text(value)
        }
        return RequestFields(values: values, surface: .http)
    }

    func signIn(_ contexts: OwnerContexts, user: inout String?) throws -> HTTPResponse {
        let words = PageWords(language: PageLanguage(setting: nil, acceptLanguage: request.acceptLanguage))
        guard !crossOrigin else { throw APIError(code: .forbidden, message: "sign in from this server's own page") }
        let form = FormBody(request.body)
        let token = form["token"] ?? ""
        let sessions = try self.sessions(contexts)
        let opened: (cookie: String, session: UserSession, user: User)
        var byPassword = false
        if token.isEmpty, let name = form["name"], !name.isEmpty {
            // By name and password: failures lock the name from their address, and only slow it
            // elsewhere, never for a browser that signed in to it before (`SignInLock`).
            let now = clock.now
            let known = cookie(named: Self.knownCookie) == knownMark(name)
            if let until = options.signInLock.lockedUntil(name, address: request.address, known: known, at: now) {
                var locked = HTTPResponse.html(SignInPage(words: words, error: Self.lockedMessage(until: until, now: now, words: words)).render(), status: 429)
                locked.headers.append(("Retry-After", String(Int(until.timeIntervalSince(now).rounded(.up)))))
                return locked
            }
            guard let found = try sessions.open(name: name, password: form["password"] ?? "", lifetime: options.sessionLifetime, hasher: try Argon2idHasher()) else {
                options.signInLock.failed(name, address: request.address, at: now)
                return .html(SignInPage(words: words, error: words["That name and password do not match."]).render(), status: 401)
            }
            options.signInLock.succeeded(name, address: request.address)
            opened = found
            byPassword = true
        } else {
            guard Tokens.isWellFormed(token), let found = try sessions.open(token: token, lifetime: options.sessionLifetime) else {
                return .html(SignInPage(words: words, error: words["That token belongs to no user."]).render(), status: 401)
            }
            opened = found
        }
        user = opened.user.name
        var cookie = "\(Self.cookie)=\(opened.cookie); Path=/; HttpOnly; SameSite=Lax; Max-Age=\(Int(options.sessionLifetime))"
        if secure { cookie += "; Secure" }
        var answer = HTTPResponse.redirect(to: "/", setCookie: cookie)
        // A password sign-in marks the browser as one the account knows (`SignInLock`).
        if byPassword {
            let known = "\(Self.knownCookie)=\(knownMark(opened.user.name)); Path=/session; HttpOnly; SameSite=Strict; Max-Age=\(Self.knownCookieSeconds)"
            answer.headers.append(("Set-Cookie", known + (secure ? "; Secure" : "")))
        }
        return answer
    }

    /// `/pair`: the page a pairing code's QR code opens, and its post, which signs this browser in
    /// as the code's user (a wrong code is a 401 that counts toward the address's failures).
    func pair(_ contexts: OwnerContexts, user: inout String?) throws -> HTTPResponse {
        let words = PageWords(language: PageLanguage(setting: nil, acceptLanguage: request.acceptLanguage))
        if request.method == "GET" {
            var page = HTTPResponse.html(PairPage(words: words, code: String((request.argument("code") ?? "").prefix(16))).render())
            page.headers.append(("Referrer-Policy", "same-origin"))
            return page
        }
        guard !crossOrigin else { throw APIError(code: .forbidden, message: "connect from this server's own page") }
        let form = FormBody(request.body)
        let opened: (cookie: String, session: UserSession, user: User)
        do {
            opened = try sessions(contexts).open(pairingCode: form["code"] ?? "", device: form["name"] ?? "", lifetime: options.sessionLifetime)
        } catch let error as UseCaseError {
            let view = ErrorView(error, requestCode: .badRequest)
            return .html(PairPage(words: words, code: String((form["code"] ?? "").prefix(16)), error: words[view.message]).render(),
                         status: StackDayAPI.status(of: view.code))
        }
        user = opened.user.name
        var cookie = "\(Self.cookie)=\(opened.cookie); Path=/; HttpOnly; SameSite=Lax; Max-Age=\(Int(options.sessionLifetime))"
        if secure { cookie += "; Secure" }
        return .redirect(to: "/", setCookie: cookie)
    }

    /// When a locked name opens again, in UTC (no one is signed in to give a zone) and in minutes.
    static func lockedMessage(until: Date, now: Date, words: PageWords) -> String {
        let minutes = max(1, Int((until.timeIntervalSince(now) / 60).rounded(.up)))
        let time = InstantText.local(until, in: .gmt)
        return words.language == .ko
            ? "이 이름으로 로그인에 여러 번 실패해 잠겼습니다. \(time)(\(minutes)분 뒤)에 다시 열립니다."
            : "Too many failed sign-ins for this name: it opens again at \(time) (in \(minutes) minute\(minutes == 1 ? "" : "s"))."
    }

    /// Sessions live in the store's users, not any owner's data; the day boundary plays no part.
    private func sessions(_ contexts: OwnerContexts) throws -> ManageSessions {
        ManageSessions(context: try contexts.baseContext(clock: clock))
    }

    var expiredCookie: String {
        "\(Self.cookie)=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0" + (secure ? "; Secure" : "")
    }

    static func asset(_ text: String, type: String) -> HTTPResponse {
        var response = HTTPResponse.text(text, contentType: type)
        response.headers = [("Cache-Control", "public, max-age=300")]
        return response
    }
}
