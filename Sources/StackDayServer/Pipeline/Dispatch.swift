import StackDay
import StackDayApplication
import StackDayEngine

/// The pipeline's endpoint: where a request goes once the stages before it let it through: a
/// calendar feed and a device pairing (each its own credential), the web app's pages, or the
/// `/v1` API (its own stages, then `HabitRoutes`).
struct Dispatch: Sendable {
    let pool: ContextPool
    let clock: any StackDay.Clock
    let pages: PageOptions
    let directory: ClientDirectory
    let failures: Throttle
    let stateBytes: Int
    /// `/v1` once authenticated: its stages, then the route's handler.
    let api: Pipeline

    func answer(_ exchange: Exchange) throws -> HTTPResponse {
        let request = exchange.request
        let parts = exchange.segments ?? []
        // A calendar feed: the token in the path is the credential, since calendar apps send no
        // headers (an unknown one counts as a failed authentication).
        if parts.count == 3, parts[0] == "v1", parts[1] == "feeds", request.method == "GET" {
            return try pool.with { contexts in try feed(parts[2], request, contexts) }
        }
        // Pairing: the code is the credential (a wrong one counts as a failed authentication).
        if parts == ["v1", "devices", "pair"], request.method == "POST" {
            return try pool.with { contexts in
                try HabitRoutes.pair(request, context: HabitContext(store: try contexts.baseStore(), clock: clock, boundary: DayBoundary(timeZone: .gmt)))
            }
        }
        guard parts.first == "v1" else {
            return try pool.with { contexts in
                let routes = PageRoutes(request: request, clock: clock, options: pages)
                var user: String?
                defer { exchange.user = user }
                let answer = try routes.answer(parts, contexts: contexts, user: &user)
                if let user, let session = routes.sessionCookie { directory.learn(session, user: user) }
                return answer
            }
        }
        return try api.answer(exchange)
    }

    /// `GET /v1/feeds/{token}.ics`: the user's habits as an iCalendar feed (`CalendarFeedView`),
    /// with an `ETag` of its text, so that an hourly fetch of an unchanged feed is a 304.
    private func feed(_ file: String, _ request: HTTPRequest, _ contexts: OwnerContexts) throws -> HTTPResponse {
        let base = HabitContext(store: try contexts.baseStore(), clock: clock, boundary: DayBoundary(timeZone: .gmt))
        guard file.hasSuffix(".ics"), let account = try ManageUsers(context: base).user(feedToken: String(file.dropLast(4))) else {
            failures.record(request.address)
            throw APIError.notFound("no such feed: ask for the address again (Settings › Calendar feed, or stackday user feed NAME)")
        }
        let context = try contexts.context(for: account.name, clock: clock, boundary: account.boundary)
        defer { contexts.release(account.name, holdingMoreThan: stateBytes) }
        let text = try Application(context: context).calendarFeed(title: "StackDay · \(account.name)").text
        let etag = "W/\"" + ConditionalAnswer.fnv(text) + "\""
        if let unchanged = ConditionalAnswer.unchanged(request, etag: etag, contentType: "text/calendar; charset=utf-8") { return unchanged }
        return ConditionalAnswer.versioned(HTTPResponse.text(text, contentType: "text/calendar; charset=utf-8"), etag: etag)
    }
}
