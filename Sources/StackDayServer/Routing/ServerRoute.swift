/// Every path the server answers, in one table built once: the `/v1` API's endpoints (under
/// `v1/`, each with its API document entry) and the web app's pages and forms. A request is
/// matched once, here, before any stage that depends on where it goes.
///
/// `/healthz`, `/openapi.json` and preflights are answered before routing (`OpenEndpoints`,
/// `CrossOrigin`); they are not resources of a user.
enum ServerRoute: Sendable {
    /// An endpoint of the API.
    case api(HabitRoutes.Endpoint)
    /// A page or form of the web app.
    case page(PageRoutes.Endpoint)

    /// The API's routes, then the pages'. No path reaches both: every API pattern starts with the
    /// literal `v1`, and no page pattern starts with `v1` or a capture (`ServerRouteTests`).
    static let router = Router<ServerRoute>(
        HabitRoutes.routes.map { ($0.method, "v1/" + $0.pattern, ServerRoute.api($0.handler)) }
            + PageRoutes.routes.map { ($0.method, $0.pattern, ServerRoute.page($0.handler)) })

    /// Whether decoded path segments are under `/v1` (an unmatched one is the API's to refuse, in JSON).
    static func isAPI(_ segments: [String]) -> Bool { segments.first == "v1" }

    /// A request's decoded segments as the table matches them: `/` is no segment at all.
    static func normalized(_ segments: [String]) -> [String] { segments == [""] ? [] : segments }

    /// The route a request reaches, as the API's or the pages' own match (a known path with
    /// another method, or no route at all, stays that).
    static func match(_ method: String, _ segments: [String]) -> Reached {
        let segments = normalized(segments)
        switch router.match(method, segments) {
        case .found(.api(let endpoint), let captures): return .api(.found(endpoint, captures))
        case .found(.page(let endpoint), let captures): return .page(.found(endpoint, captures))
        case .methodNotAllowed(let allowed): return isAPI(segments) ? .api(.methodNotAllowed(allowed)) : .page(.methodNotAllowed(allowed))
        case .notFound: return isAPI(segments) ? .api(.notFound) : .page(.notFound)
        }
    }

    /// Where a request went: the API's side of the table or the pages'.
    enum Reached {
        case api(Router<HabitRoutes.Endpoint>.Match)
        case page(Router<PageRoutes.Endpoint>.Match)
    }

    /// The pattern of the route a request reached (`/v1/habits/:name`), for the metrics' labels;
    /// pages are one label.
    static func label(_ method: String, _ segments: [String]) -> String {
        let segments = normalized(segments)
        guard isAPI(segments) else { return "pages" }
        return router.pattern(method, segments).map { "/" + $0 } ?? "unknown"
    }
}
