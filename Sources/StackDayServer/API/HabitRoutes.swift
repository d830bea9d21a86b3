import Foundation
import StackDay
import StackDayApplication

/// The `/v1/…` endpoints for one authenticated user: each parses its path and fields, calls the
/// application layer, and answers the view's JSON (the JSON the matching `--json` command prints).
struct HabitRoutes {
    let app: Application
    let user: User
    let request: HTTPRequest
    let users: ManageUsers

    typealias Handler = @Sendable (HabitRoutes, [String]) throws -> HTTPResponse

    /// The request's query arguments and JSON body as the application's fields.
    func fields() throws -> RequestFields { try RequestFields(query: request.query, body: request.body) }

    /// The endpoints, built once: method, path pattern (`:` marks a segment captured in order), handler.
    static let router = Router<Handler>([
        ("GET", "habits", { r, _ in .json(try r.app.listHabits(r.fields()).json) }),
        ("POST", "habits", { r, _ in .json(try r.app.createHabit(r.fields()).json, status: 201) }),
        ("GET", "habits/:name", { r, names in
            let view = try r.app.showHabit(names[0])
            // A policy that failed for this habit: its definition with the error, as `habit show` prints it.
            return .json(view.json, status: view.failure == nil ? 200 : 422)
        }),
        ("PATCH", "habits/:name", { r, names in .json(try r.app.editHabit(names[0], r.fields()).json) }),
        ("DELETE", "habits/:name", { r, names in
            _ = try r.app.deleteHabit(names[0])
            return HTTPResponse(status: 204, contentType: "application/json", body: [])
        }),
        ("POST", "habits/:name/archive", { r, names in .json(try r.app.archiveHabit(names[0], r.fields()).json) }),
        ("POST", "habits/:name/unarchive", { r, names in
            try r.fields().check(allowed: [])
            return .json(try r.app.unarchiveHabit(names[0]).json)
        }),
        ("POST", "habits/:name/records", { r, names in .json(try r.app.record(names[0], r.fields()).json, status: 201) }),
        ("DELETE", "habits/:name/records/latest", { r, names in .json(try r.app.undo(names[0], r.fields()).json) }),
        ("POST", "habits/:name/skips", { r, names in .json(try r.app.skip(names[0], r.fields()).json, status: 201) }),
        ("GET", "today", { r, _ in
            try r.fields().check(allowed: [])
            return .json(try r.app.todayView().json)
        }),
        ("GET", "stats", { r, _ in .json(try r.app.stats(r.fields()).json) }),
        ("GET", "report/week", { r, _ in
            let view = try r.app.weekReport(r.fields().removing("format"))
            return r.request.argument("format") == "json" ? .json(view.json) : .text(view.text + "\n")
        }),
        ("GET", "calendar/:name", { r, names in .json(try r.app.calendar([names[0]], r.fields()).json) }),
        ("GET", "habits/:name/explain", { r, names in .json(try r.app.explain(names[0], r.fields()).json) }),
        ("GET", "habits/:name/revisions", { r, names in .json(try r.app.revisions(names[0]).json) }),
        ("POST", "habits/:name/rollback", { r, names in .json(try r.app.rollback(names[0], r.fields()).json, status: 201) }),
        ("POST", "habits/:name/simulate", { r, names in .json(try r.app.simulate(names[0], r.fields()).json) }),
        ("GET", "policies", { r, _ in .json(try r.app.installedPolicies().json) }),
        ("GET", "policies/:name", { r, names in .json(try r.app.installedPolicy(names[0]).json) }),
        ("PUT", "policies/:name", { r, names in
            guard let source = String(validating: r.request.body, as: UTF8.self), !source.isEmpty else {
                throw APIError.badRequest("the body must be the policy's Lua source, as UTF-8 text")
            }
            do {
                return .json(try r.app.install(names[0], source: source).json, status: 201)
            } catch let refusal as PolicyRefusal {
                return .json(RefusalView(refusal: refusal).json, status: 422)
            }
        }),
        ("GET", "settings", { r, _ in .json(UserView(r.user).json) }),
        ("PUT", "settings", { r, _ in try r.settings() }),
    ])

    /// Answers the request whose path below `/v1` is `path` (decoded segments).
    func answer(_ path: [String]) throws -> HTTPResponse {
        switch Self.router.match(request.method, path) {
        case .found(let handler, let captures): return try handler(self, captures)
        case .methodNotAllowed: throw APIError.methodNotAllowed(request.method)
        case .notFound: throw APIError.notFound("no such endpoint: /v1/\(path.joined(separator: "/"))")
        }
    }

    func settings() throws -> HTTPResponse {
        let fields = try fields()
        try fields.check(allowed: ["timeZone", "dayStartsAt", "language"])
        var dayStart = user.dayStart
        if let text = try fields.string("dayStartsAt") {
            do { dayStart = try DayStart(parsing: text) } catch { throw APIError.badRequest("field 'dayStartsAt': \(error)") }
        }
        let configured = try users.configure(user.name, timeZone: try fields.string("timeZone") ?? user.timeZone, dayStart: dayStart,
                                             language: try fields.string("language"))
        return .json(UserView(configured).json)
    }
}
