import Foundation
import StackDay
import StackDayExchange

/// The `/v1/…` endpoints for one authenticated user.
struct HabitRoutes {
    let context: HabitContext
    let user: User
    let request: HTTPRequest
    let users: ManageUsers

    /// The endpoints: method, path pattern (`:` marks a segment captured in order), handler.
    var routes: [(method: String, pattern: String, handle: ([String]) throws -> HTTPResponse)] {
        [
            ("GET", "habits", { _ in .json(.object(["habits": .array(try ListHabits(context: context)(includeArchived: true).map(JSONOutput.habit))])) }),
            ("POST", "habits", { _ in try createHabit() }),
            ("GET", "habits/:name", { names in
                guard let result = try SummarizeHabits(context: context)(habitName: names[0]).first else { throw UseCaseError.habitNotFound(name: names[0]) }
                return .json(JSONOutput.habitShow(result))
            }),
            ("DELETE", "habits/:name", { names in
                _ = try DeleteHabit(context: context)(habitName: names[0])
                return HTTPResponse(status: 204, contentType: "application/json", body: [])
            }),
            ("POST", "habits/:name/records", { names in try record(names[0]) }),
            ("DELETE", "habits/:name/records/latest", { names in
                let removed = try CancelCompletion(context: context)(habitName: names[0], on: try queryDay("on"))
                return .json(JSONOutput.completion(removed, habit: names[0]))
            }),
            ("POST", "habits/:name/skips", { names in
                let body = try RequestBody(request.body, allowed: ["from", "to"])
                guard let from = try body.day("from") else { throw APIError.badRequest("field 'from' is required") }
                let skips = try SkipDays(context: context)(habitName: names[0], days: LocalDayRange(from, try body.day("to") ?? from))
                return .json(.object(["skipped": .array(skips.map { .string($0.day.iso) })]), status: 201)
            }),
            ("GET", "today", { _ in
                let results = JSONOutput.todayResults(try SummarizeHabits(context: context)(includeArchived: false))
                return .json(JSONOutput.today(context.today, results))
            }),
            ("GET", "stats", { _ in .json(JSONOutput.stats(try SummarizeHabits(context: context)(includeArchived: true))) }),
            ("GET", "report/week", { _ in try weeklyReport() }),
            ("GET", "settings", { _ in .json(JSONOutput.user(user)) }),
            ("PUT", "settings", { _ in try settings() }),
        ]
    }

    func answer(_ path: [String]) throws -> HTTPResponse {
        var pathKnown = false
        for route in routes {
            guard let captures = Self.match(route.pattern, path) else { continue }
            pathKnown = true
            if route.method == request.method { return try route.handle(captures) }
        }
        throw pathKnown ? APIError.methodNotAllowed(request.method) : APIError.notFound("no such endpoint: \(request.path)")
    }

    /// The captured segments when `path` fits `pattern`.
    static func match(_ pattern: String, _ path: [String]) -> [String]? {
        let parts = pattern.split(separator: "/").map(String.init)
        guard parts.count == path.count else { return nil }
        var captures: [String] = []
        for (part, segment) in zip(parts, path) {
            if part.hasPrefix(":") {
                guard !segment.isEmpty else { return nil }
                captures.append(segment)
            } else if part != segment {
                return nil
            }
        }
        return captures
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
