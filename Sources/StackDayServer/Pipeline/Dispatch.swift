import StackDay
import StackDayApplication
import StackDayEngine

/// The pipeline's endpoint: the request is matched once against `ServerRoute.router`, then goes
/// where its route says: an API endpoint whose credential is in the request (a calendar feed, a
/// device pairing), the rest of `/v1` (its own stages, then the endpoint's handler), or the web
/// app's pages.
struct Dispatch: Sendable {
    let pool: ContextPool
    let clock: any StackDay.Clock
    let pages: PageOptions
    let directory: ClientDirectory
    let failures: Throttle
    let stateBytes: Int
    /// Form posts sent with an `Idempotency-Key` (a page's offline queue) run once.
    let idempotency: Idempotency
    /// `/v1` once authenticated: its stages, then the route's handler (`exchange.reached`).
    let api: Pipeline

    func answer(_ exchange: Exchange) throws -> HTTPResponse {
        let request = exchange.request
        let parts = exchange.segments ?? []
        switch ServerRoute.match(request.method, parts) {
        case .api(.found(let endpoint, let captures)):
            if case .open(let run) = endpoint.access {
                return try pool.with { contexts in
                    let open = HabitRoutes.OpenRequest(request: request, contexts: contexts, clock: clock, failures: failures, stateBytes: stateBytes,
                                                       authenticated: { exchange.user = $0 })
                    return try run(open, captures)
                }
            }
            exchange.reached = .found(endpoint, captures)
            return try api.answer(exchange)
        case .api(let other):
            // Refused after authentication, as before: no route's existence is told to a stranger.
            exchange.reached = other
            return try api.answer(exchange)
        case .page(let reached):
            return try pool.with { contexts in
                let routes = PageRoutes(request: request, clock: clock, options: pages, idempotency: idempotency)
                var user: String?
                defer { exchange.user = user }
                let answer = try routes.answer(reached, segments: ServerRoute.normalized(parts), contexts: contexts, user: &user)
                if let user, let session = routes.sessionCookie { directory.learn(session, user: user) }
                return answer
            }
        }
    }
}
