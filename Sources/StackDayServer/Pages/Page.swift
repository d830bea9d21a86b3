import StackDay
import StackDayApplication

/// One signed-in request's pages: the application for its user, the session (for the CSRF
/// token), and the words of the user's language.
struct Page {
    let app: Application
    let user: User
    let session: UserSession
    let words: PageWords
    let request: HTTPRequest

    var policies: [PolicyRole: [PolicyListing]] {
        Dictionary(uniqueKeysWithValues: PolicyRole.allCases.map { ($0, app.policies(for: $0)) })
    }

    func today() throws -> TodayPage {
        let view = try app.todayView()
        let count = (try? app.context.store.changeCount()).flatMap { $0 } ?? 0
        let etag = "W/\"\(count)-\(view.day.iso)-\(words.language.rawValue)\""
        return TodayPage(view: view, words: words, csrf: session.csrfToken, policies: policies, etag: etag)
    }

    func habit(_ name: String) throws -> HabitPage {
        let detail = try app.showHabit(name)
        let today = app.today
        let month = request.argument("month").flatMap { try? LocalDay(iso: $0 + "-01") }.flatMap { $0.isSupported ? $0 : nil } ?? today.startOfMonth
        let day = request.argument("day").flatMap { try? LocalDay(iso: $0) } ?? today
        let first = month.startOfMonth
        let calendar = try app.calendar([name], RequestFields(values: [
            "from": .text(first.iso), "to": .text(first.adding(days: first.daysInMonth - 1).iso),
        ], surface: .http))
        return HabitPage(detail: detail, month: first, calendar: calendar, dashboard: try? app.panel(name), day: day,
                         records: (try? app.records(name, from: day, to: day).records) ?? [], today: today, words: words,
                         csrf: session.csrfToken, policies: policies)
    }

    /// The add-habit form's fields: `base` and the chosen policies with their parameters.
    func ruleFields(_ form: FormBody, base: RequestFields) throws -> RequestFields {
        var fields = base
        for role in PolicyRole.allCases {
            guard let (name, parameters) = ParameterFields.choice(role: role, form: form.fields, listings: app.policies(for: role)) else { continue }
            fields = fields.with(role.rawValue, .text(name), label: "field '\(role.rawValue)'")
                .with("\(role.rawValue)Params", .json(.object(parameters)), label: "field '\(role.rawValue)Params'")
        }
        return fields
    }

    /// The edit form's fields: only what differs from the habit as it is, so an unchanged form
    /// writes no revision.
    func changedFields(_ name: String, _ form: FormBody) throws -> RequestFields {
        let habit = try FindHabit(context: app.context)(named: name)
        let latest = habit.latest
        var fields = RequestFields(surface: .http)
        if let text = form["name"], text != habit.name { fields = fields.with("name", .text(text)) }
        if let text = form["unit"], text != habit.unit { fields = fields.with("unit", .text(text)) }
        if let text = form["goal"], let goal = Double(text), goal != latest.goal { fields = fields.with("goal", .text(text)) }
        else if let text = form["goal"], Double(text) == nil { fields = fields.with("goal", .text(text)) }
        var changesRules = fields.has("goal")
        for role in PolicyRole.allCases {
            guard let (policy, parameters) = ParameterFields.choice(role: role, form: form.fields, listings: app.policies(for: role)) else { continue }
            let current = latest.choice(for: role)
            guard policy != current.name || parameters != current.parameters else { continue }
            fields = fields.with(role.rawValue, .text(policy)).with("\(role.rawValue)Params", .json(.object(parameters)))
            changesRules = true
        }
        if changesRules, let from = form["from"], !from.isEmpty { fields = fields.with("from", .text(from)) }
        return fields
    }
}
