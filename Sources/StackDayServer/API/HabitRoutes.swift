import Foundation
import StackDay
import StackDayExchange

/// The `/v1/…` endpoints for one authenticated user.
struct HabitRoutes {
    let context: HabitContext
    let user: User
    let request: HTTPRequest
    let users: ManageUsers

    typealias Handler = @Sendable (HabitRoutes, [String]) throws -> HTTPResponse

    /// The endpoints, built once: method, path pattern (`:` marks a segment captured in order), handler.
    static let router = Router<Handler>([
        ("GET", "habits", { r, _ in .json(.object(["habits": .array(try ListHabits(context: r.context)(includeArchived: true).map(JSONOutput.habit))])) }),
        ("POST", "habits", { r, _ in try r.createHabit() }),
        ("GET", "habits/:name", { r, names in
            guard let result = try SummarizeHabits(context: r.context)(habitName: names[0]).first else { throw UseCaseError.habitNotFound(name: names[0]) }
            // A policy that failed for this habit: its definition with the error, as `habit show` prints it.
            return .json(JSONOutput.habitShow(result), status: result.failure == nil ? 200 : 422)
        }),
        ("DELETE", "habits/:name", { r, names in
            _ = try DeleteHabit(context: r.context)(habitName: names[0])
            return HTTPResponse(status: 204, contentType: "application/json", body: [])
        }),
        ("POST", "habits/:name/records", { r, names in try r.record(names[0]) }),
        ("DELETE", "habits/:name/records/latest", { r, names in
            let removed = try CancelCompletion(context: r.context)(habitName: names[0], on: try r.queryDay("on"))
            return .json(JSONOutput.completion(removed, habit: names[0]))
        }),
        ("POST", "habits/:name/skips", { r, names in
            let body = try RequestBody(r.request.body, allowed: ["from", "to"])
            guard let from = try body.day("from") else { throw APIError.badRequest("field 'from' is required") }
            let skips = try SkipDays(context: r.context)(habitName: names[0], days: LocalDayRange(from, try body.day("to") ?? from))
            return .json(.object(["skipped": .array(skips.map { .string($0.day.iso) })]), status: 201)
        }),
        ("GET", "today", { r, _ in
            let results = JSONOutput.todayResults(try SummarizeHabits(context: r.context)(includeArchived: false))
            return .json(JSONOutput.today(r.context.today, results))
        }),
        ("GET", "stats", { r, _ in .json(JSONOutput.stats(try SummarizeHabits(context: r.context)(includeArchived: true))) }),
        ("GET", "report/week", { r, _ in try r.weeklyReport() }),
        ("PATCH", "habits/:name", { r, names in try r.editHabit(names[0]) }),
        ("GET", "calendar/:name", { r, names in
            let to = try r.queryDay("to") ?? r.context.today
            let from = try r.queryDay("from")
            if let from, from > to { throw APIError.badRequest("from \(from) is after to \(to)") }
            let timeline = try LoadTimeline(context: r.context)(habitName: names[0], through: to)
            return .json(JSONOutput.calendar(timeline, range: try timeline.calendarDays(from: from, through: to)))
        }),
        ("GET", "habits/:name/revisions", { r, names in .json(JSONOutput.history(try FindHabit(context: r.context)(named: names[0]))) }),
        ("POST", "habits/:name/rollback", { r, names in
            let body = try RequestBody(r.request.body, allowed: ["to", "from"])
            var number: Int?
            if let value = try body.number("to") {
                guard value >= 1, value == value.rounded(), value < 1e9 else { throw APIError.badRequest("field 'to' must be a revision number") }
                number = Int(value)
            }
            let from = try body.day("from").map(RevisionStart.day) ?? .today
            return .json(JSONOutput.rules(try RollBackRules(context: r.context)(.name(names[0]), to: number, from: from)), status: 201)
        }),
        ("POST", "habits/:name/simulate", { r, names in try r.simulate(names[0]) }),
        ("GET", "policies", { r, _ in
            .json(.object(["policies": .array(try r.context.store.read { try $0.scripts.all() }.map(JSONOutput.installed))]))
        }),
        ("GET", "policies/:name", { r, names in
            guard let script = try r.context.store.read({ try $0.scripts.latest(named: names[0]) }) else {
                throw APIError.notFound("no policy named \(names[0]) is installed")
            }
            guard case .object(var object) = JSONOutput.installed(script) else { return .json(.null) }
            object["source"] = .string(script.source)
            return .json(.object(object))
        }),
        ("PUT", "policies/:name", { r, names in
            guard let source = String(validating: r.request.body, as: UTF8.self), !source.isEmpty else {
                throw APIError.badRequest("the body must be the policy's Lua source, as UTF-8 text")
            }
            do {
                return .json(JSONOutput.installed(try InstallPolicy(context: r.context)(name: names[0], source: source)), status: 201)
            } catch let refusal as PolicyRefusal {
                guard case .object(var object) = JSONOutput.refusal(refusal) else { throw refusal }
                object["error"] = ErrorCode.body(.policyFailed, "policy \(refusal.policy) was not installed: \(refusal.failures.count) check\(refusal.failures.count == 1 ? "" : "s") failed").objectValue?["error"]
                return .json(.object(object), status: 422)
            }
        }),
        ("GET", "settings", { r, _ in .json(JSONOutput.user(r.user)) }),
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

    /// `PATCH /v1/habits/{name}`: a new name, start or unit, and new rules from `from` (default
    /// today) or the start with `"retroactive": true`, as `habit edit` and `habit rename` do, in
    /// one transaction.
    func editHabit(_ name: String) throws -> HTTPResponse {
        let body = try RequestBody(request.body, allowed: [
            "name", "goal", "unit", "start", "schedule", "scheduleParams", "progress", "progressParams", "streak", "streakParams",
            "from", "retroactive",
        ])
        let from = try body.day("from")
        let retroactive: Bool
        switch try body.bool("retroactive") {
        case true?:
            guard from == nil else { throw APIError.badRequest("give 'from' or 'retroactive', not both") }
            retroactive = true
        default: retroactive = false
        }
        let changes = HabitChanges(
            name: try body.string("name"), startedOn: try body.day("start"), goal: try body.number("goal"), unit: try body.string("unit"),
            schedule: try policyChoice(body, "schedule"), progress: try policyChoice(body, "progress"), streak: try policyChoice(body, "streak"),
            rulesFrom: retroactive ? .retroactive : from.map(RevisionStart.day) ?? .today
        )
        if !changes.changesRules, from != nil || retroactive {
            throw APIError.badRequest("'from' and 'retroactive' apply to a new goal or policy")
        }
        return .json(JSONOutput.habit(try EditHabit(context: context)(habitName: name, changes: changes)))
    }

    /// `POST /v1/habits/{name}/simulate`: `{"policy", "role", "params", "from"}`.
    func simulate(_ name: String) throws -> HTTPResponse {
        let body = try RequestBody(request.body, allowed: ["policy", "role", "params", "from"])
        let policy = try body.requiredString("policy")
        guard let roleText = try body.string("role") else { throw APIError.badRequest("field 'role' is required: schedule, progress or streak") }
        guard let role = PolicyRole(rawValue: roleText) else { throw APIError.badRequest("field 'role' must be schedule, progress or streak, not '\(roleText)'") }
        let from = try body.day("from").map(RevisionStart.day) ?? .retroactive
        let simulation = try SimulatePolicy(context: context)(.name(name), policy: policy, role: role, parameters: try body.object("params"), from: from)
        return .json(JSONOutput.simulation(simulation, role: role))
    }

    func weeklyReport() throws -> HTTPResponse {
        let language: ReportLanguage
        switch request.argument("lang") ?? "en" {
        case "en": language = .english
        case "ko": language = .korean
        case let other: throw APIError.badRequest("lang must be en or ko, not '\(other)'")
        }
        let report = try BuildWeeklyReport(context: context)(weekOf: try queryDay("weekOf"))
        return .text(WeeklyReportFormatter(language: language).format(report) + "\n")
    }

    func settings() throws -> HTTPResponse {
        let body = try RequestBody(request.body, allowed: ["timeZone", "dayStartsAt"])
        var dayStart = user.dayStart
        if let text = try body.string("dayStartsAt") {
            do { dayStart = try DayStart(parsing: text) } catch { throw APIError.badRequest("field 'dayStartsAt': \(error)") }
        }
        return .json(JSONOutput.user(try users.configure(user.name, timeZone: try body.string("timeZone") ?? user.timeZone, dayStart: dayStart)))
    }

    /// The query argument `key` as a day, when given.
    func queryDay(_ key: String) throws -> LocalDay? {
        guard let text = request.argument(key) else { return nil }
        guard let day = try? LocalDay(iso: text), day.isSupported else { throw APIError.badRequest("\(key) must be a day as YYYY-MM-DD, not '\(text)'") }
        return day
    }

    func policyChoice(_ body: RequestBody, _ role: String) throws -> PolicyChoice? {
        guard let name = try body.string(role) else {
            if body.has("\(role)Params") { throw APIError.badRequest("field '\(role)Params' needs '\(role)'") }
            return nil
        }
        return PolicyChoice(name: name, parameters: try body.object("\(role)Params") ?? [:])
    }

    func createHabit() throws -> HTTPResponse {
        let body = try RequestBody(request.body, allowed: [
            "name", "goal", "unit", "start", "schedule", "scheduleParams", "progress", "progressParams", "streak", "streakParams",
        ])
        let habit = try CreateHabit(context: context)(
            name: try body.requiredString("name"), startedOn: try body.day("start"), goal: try body.number("goal") ?? 1,
            unit: try body.string("unit") ?? "", schedule: try policyChoice(body, "schedule") ?? .daily,
            progress: try policyChoice(body, "progress") ?? .goal, streak: try policyChoice(body, "streak") ?? .strict
        )
        return .json(JSONOutput.habit(habit), status: 201)
    }

    func record(_ name: String) throws -> HTTPResponse {
        let body = try RequestBody(request.body, allowed: ["amount", "on", "at"])
        let amount = try body.number("amount") ?? 1
        let completion: Completion
        if let text = try body.string("at") {
            guard !body.has("on") else { throw APIError.badRequest("give 'on' or 'at', not both") }
            guard let instant = InstantText.parse(text) else { throw APIError.badRequest("field 'at' must be an ISO 8601 instant with an offset, not '\(text)'") }
            completion = try RecordCompletion(context: context)(habitName: name, amount: amount, at: instant)
        } else {
            completion = try RecordCompletion(context: context)(habitName: name, amount: amount, on: try body.day("on"))
        }
        return .json(JSONOutput.completion(completion, habit: name), status: 201)
    }
}
