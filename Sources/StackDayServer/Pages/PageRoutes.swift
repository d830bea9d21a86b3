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

    let request: HTTPRequest
    let clock: any StackDay.Clock
    let options: PageOptions

    /// The session id a cookie carries.
    var sessionCookie: String? {
        guard let header = request.cookie else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.trimmingCharacters(in: .whitespaces)
            if pair.hasPrefix(Self.cookie + "=") { return String(pair.dropFirst(Self.cookie.count + 1)) }
        }
        return nil
    }

    /// Whether the request came over TLS (directly, or as a proxy in front says).
    var secure: Bool { options.cookieSecure || request.forwardedProto?.lowercased() == "https" }

    /// An `Origin` that is not this server's.
    var crossOrigin: Bool {
        guard let origin = request.origin else { return false }
        guard let host = request.host else { return true }
        return origin != "http://\(host)" && origin != "https://\(host)"
    }

    func answer(_ path: [String], contexts: OwnerContexts, user: inout String?) throws -> HTTPResponse {
        // `/` is one empty segment.
        let segments = path == [""] ? [] : path
        let method = request.method
        if method == "GET", segments == ["app.css"] { return Self.asset(PageAssets.stylesheet, type: "text/css; charset=utf-8") }
        if method == "GET", segments == ["app.js"] { return Self.asset(PageAssets.script, type: "text/javascript; charset=utf-8") }
        if method == "POST", segments == ["session"] { return try signIn(contexts, user: &user) }
        if segments == ["pair"] { return try pair(contexts, user: &user) }
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
        if request.method == "POST" {
            let form = FormBody(request.body)
            guard !crossOrigin, form["csrf"] == session.csrfToken else {
                throw APIError(code: .forbidden, message: "the form's CSRF token or origin is not this session's; reload the page and try again")
            }
            return try post(segments, form: form, page: page, sessions: sessions, cookie: cookie, contexts: contexts)
        }
        let habitName = segments.count == 2 && segments[0] == "habits" ? segments[1] : nil
        guard segments.isEmpty || segments == ["today.html"] || segments == ["policies"] || segments == ["settings"] || habitName != nil else {
            throw APIError.notFound("no such page: \(request.path)")
        }
        guard method == "GET" else { throw APIError.methodNotAllowed(method) }
        if segments == ["policies"] { return .html(try page.policies(name: nil, source: nil, refusal: nil).render(user: account.name)) }
        if segments == ["settings"] { return .html(try page.settings().render()) }
        if let habitName { return .html(try page.habit(habitName).render(user: account.name)) }
        let today = try page.today()
        guard segments == ["today.html"] else { return .html(today.render(user: account.name)) }
        if request.ifNoneMatch == today.etag { return HTTPResponse(status: 304, contentType: "text/html; charset=utf-8", body: []) }
        var response = HTTPResponse.html(today.rows())
        response.headers = [("ETag", today.etag)]
        return response
    }

    /// A form post: the change, then a redirect to `back` (a path of this server) or the page
    /// it came from; a refused change shows that page again with the error, writing nothing.
    private func post(_ segments: [String], form: FormBody, page: Page, sessions: ManageSessions, cookie: String, contexts: OwnerContexts) throws -> HTTPResponse {
        let back = form["back"].flatMap(PagePaths.localTarget)
        let fields = Self.fields(form, except: ["csrf", "back"])
        var target = back ?? "/"
        // `/habits/{name}/{action}`.
        let name = segments.count == 3 && segments[0] == "habits" ? segments[1] : nil
        let action = name == nil ? nil : segments[2]
        do {
            if segments == ["session", "end"] {
                try sessions.end(cookie)
                return .redirect(to: "/", setCookie: expiredCookie)
            } else if segments == ["settings"] {
                _ = try ManageUsers(context: page.app.context).configure(page.user.name, timeZone: page.user.timeZone, dayStart: page.user.dayStart,
                                                                         language: form["language"] ?? "")
            } else if segments == ["settings", "feed"] {
                _ = try ManageUsers(context: page.app.context).feedToken(of: page.user.name, rotate: page.user.feedToken != nil)
                target = "/settings"
            } else if segments == ["settings", "devices", "pair"] {
                // The code is shown once, on the page answering the post (a redirect would lose it).
                var settings = try page.settings()
                settings.pairing = try PairingOffer(for: page.user.name, request: request, context: page.app.context, tls: secure)
                var shown = HTTPResponse.html(settings.render(), status: 201)
                shown.headers.append(("Cache-Control", "no-store"))
                return shown
            } else if segments.count == 4, segments[0] == "settings", segments[1] == "devices", segments[3] == "revoke" {
                guard let id = UUID(uuidString: segments[2]) else { throw UseCaseError.deviceNotFound(id: segments[2]) }
                try ManageDevices(context: page.app.context).revoke(id, of: page.user.name)
                target = "/settings"
            } else if segments == ["habits"] {
                _ = try page.app.createHabit(try page.createRequest(form, base: fields.removing(RulesFromRequest.from.key)))
            } else if segments == ["policies"] {
                let name = form["name"] ?? "", source = (form["source"] ?? "").replacingOccurrences(of: "\r\n", with: "\n")
                do {
                    _ = try page.app.install(name, source: source)
                } catch let refusal as PolicyRefusal {
                    return .html(try page.policies(name: name, source: source, refusal: refusal).render(user: page.user.name), status: 422)
                }
                return .redirect(to: "/policies?installed=" + PagePaths.segment(name))
            } else if let name, let action {
                let own = "/habits/" + PagePaths.segment(name)
                switch action {
                case "record": _ = try page.app.record(name, try fields.decode())
                case "undo": _ = try page.app.undo(name, try fields.decode())
                case "skip": _ = try page.app.skip(name, try fields.decode())
                case "unskip": _ = try page.app.unskip(name, try fields.decode())
                case "remove": try page.app.removeRecord(name, try fields.decode())
                case "archive":
                    _ = try page.app.archiveHabit(name, try fields.decode())
                    target = back ?? own
                case "unarchive":
                    _ = try page.app.unarchiveHabit(name)
                    target = back ?? own
                case "edit":
                    let edited = try page.app.editHabit(name, try page.editRequest(name, form))
                    target = "/habits/" + PagePaths.segment(edited.habit.name)
                case "apply":
                    // The lab's proposal as a new revision from `from`.
                    let role = form[SimulateRequest.role.key] ?? "", policy = form[SimulateRequest.policy.key] ?? ""
                    guard let (policyField, parametersField) = PolicyRole(rawValue: role).map(HabitRules.fields(of:)) else {
                        throw RequestError("invalid value for field 'role': '\(role)' (use schedule, progress or streak)")
                    }
                    var applied = RequestFields(surface: .http).with(policyField.key, .text(policy))
                        .with(parametersField.key, .text(form[SimulateRequest.params.key] ?? "{}"))
                    let from = RulesFromRequest.from.key
                    if let day = form[from], !day.isEmpty { applied = applied.with(from, .text(day)) }
                    _ = try page.app.editHabit(name, try applied.decode())
                    target = own + "#revisions"
                case "rollback":
                    _ = try page.app.rollback(name, try fields.decode())
                    target = own + "#revisions"
                default: throw APIError.notFound("no such form: \(request.path)")
                }
            } else {
                throw APIError.notFound("no such form: \(request.path)")
            }
        } catch let error as APIError {
            throw error
        } catch {
            let view = ErrorView(error, requestCode: .badRequest)
            let status = StackDayAPI.status(of: view.code)
            if let name, let action, (back ?? "").hasPrefix("/habits/") || ["edit", "archive", "unarchive", "apply", "rollback"].contains(action),
               let html = try? page.habit(name).render(user: page.user.name, notice: view.message) {
                return .html(html, status: status)
            }
            return .html(try page.today().render(user: page.user.name, notice: view.message), status: status)
        }
        return .redirect(to: target)
    }

    /// The form's fields for the application, but the page's own (`csrf`, `back`) and the
    /// policy fields (`ROLEParam.…`), which `Page.ruleFields` reads.
    static func fields(_ form: FormBody, except: Set<String>) -> RequestFields {
        var values: [String: RequestFields.Value] = [:]
        for (key, value) in form.fields where !except.contains(key) && !key.contains("Param.") && !PolicyRole.allCases.map(\.rawValue).contains(key) {
            values[key] = .text(value)
        }
        return RequestFields(values: values, surface: .http)
    }

    private func signIn(_ contexts: OwnerContexts, user: inout String?) throws -> HTTPResponse {
        let words = PageWords(language: PageLanguage(setting: nil, acceptLanguage: request.acceptLanguage))
        guard !crossOrigin else { throw APIError(code: .forbidden, message: "sign in from this server's own page") }
        let form = FormBody(request.body)
        let token = form["token"] ?? ""
        let sessions = try self.sessions(contexts)
        let opened: (cookie: String, session: UserSession, user: User)
        if token.isEmpty, let name = form["name"], !name.isEmpty {
            // By name and password: five failures lock the name for 15 minutes, from any address.
            let now = clock.now
            if let until = options.signInLock.lockedUntil(name, at: now) {
                var locked = HTTPResponse.html(SignInPage(words: words, error: Self.lockedMessage(until: until, now: now, words: words)).render(), status: 429)
                locked.headers.append(("Retry-After", String(Int(until.timeIntervalSince(now).rounded(.up)))))
                return locked
            }
            guard let found = try sessions.open(name: name, password: form["password"] ?? "", lifetime: options.sessionLifetime, hasher: try Argon2idHasher()) else {
                options.signInLock.failed(name, at: now)
                return .html(SignInPage(words: words, error: words["That name and password do not match."]).render(), status: 401)
            }
            options.signInLock.succeeded(name)
            opened = found
        } else {
            guard Tokens.isWellFormed(token), let found = try sessions.open(token: token, lifetime: options.sessionLifetime) else {
                return .html(SignInPage(words: words, error: words["That token belongs to no user."]).render(), status: 401)
            }
            opened = found
        }
        user = opened.user.name
        var cookie = "\(Self.cookie)=\(opened.cookie); Path=/; HttpOnly; SameSite=Lax; Max-Age=\(Int(options.sessionLifetime))"
        if secure { cookie += "; Secure" }
        return .redirect(to: "/", setCookie: cookie)
    }

    /// `/pair`: the page a pairing code's QR code opens, and its post, which signs this browser in
    /// as the code's user (a wrong code is a 401 that counts toward the address's failures).
    private func pair(_ contexts: OwnerContexts, user: inout String?) throws -> HTTPResponse {
        let words = PageWords(language: PageLanguage(setting: nil, acceptLanguage: request.acceptLanguage))
        if request.method == "GET" {
            var page = HTTPResponse.html(PairPage(words: words, code: String((request.argument("code") ?? "").prefix(16))).render())
            page.headers.append(("Referrer-Policy", "same-origin"))
            return page
        }
        guard request.method == "POST" else { throw APIError.methodNotAllowed(request.method, allowed: ["GET", "POST"]) }
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
        ManageSessions(context: HabitContext(store: try contexts.baseStore(), clock: clock, boundary: DayBoundary(timeZone: TimeZone(secondsFromGMT: 0) ?? .gmt)))
    }

    private var expiredCookie: String {
        "\(Self.cookie)=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0" + (secure ? "; Secure" : "")
    }

    static func asset(_ text: String, type: String) -> HTTPResponse {
        var response = HTTPResponse.text(text, contentType: type)
        response.headers = [("Cache-Control", "public, max-age=300")]
        return response
    }
}
