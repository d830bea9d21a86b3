import StackDay
import StackDayApplication

/// The rule lab on a habit's page: a form to try a policy for one role from a day, and when one
/// was tried, the current and proposed figures side by side, their streak and score on one
/// chart over the real history with every differing day marked, and the form that applies it.
struct LabSection {
    let habit: Habit
    let path: String
    let words: PageWords
    let csrf: String
    let listings: [PolicyListing]
    /// What the form asked for (to fill it again), and what it gave.
    let asked: FormBody
    let simulation: SimulationView?
    /// Why the lab could not try what was asked.
    let error: String?

    func render() -> HTML {
        let (form, asking) = Self.form(path: path, words: words, listings: listings, asked: asked,
                                       roles: PolicyRole.habitRoles.map { ($0, words[$0.rawValue]) }, defaultRole: .streak, start: habit.startedOn)
        var html = form
        if let error { html += "<p class=\"error\" role=\"alert\">\(error)</p>" }
        if let simulation { html += result(simulation, asking: asking) }
        return html
    }

    /// What the lab's form asks: the role, the policy and its parameters.
    struct Asking {
        let role: PolicyRole
        let policy: String
        let parameters: [String: JSONValue]
    }

    /// The lab's form, filled with what was `asked` (by default `defaultRole` and, for the group
    /// role, `any`, else `grace`), and what it asks.
    static func form(path: String, words: PageWords, listings: [PolicyListing], asked: FormBody,
                     roles: [(role: PolicyRole, label: String)], defaultRole: PolicyRole, start: LocalDay) -> (HTML, Asking) {
        var html: HTML = "<h3 id=\"lab\">\(words["Rule lab"])</h3><form method=\"get\" action=\"\(path)#lab\" data-form=\"simulate\"><input type=\"hidden\" name=\"lab\" value=\"1\">"
        let asking = asked[SimulateRequest.role.key].flatMap(PolicyRole.init(rawValue:))
        let role = roles.first { $0.role == asking }?.role ?? defaultRole
        html += "<label for=\"lab-role\">\(words["Role"])</label><select id=\"lab-role\" name=\"\(SimulateRequest.role.key)\">"
        for (candidate, label) in roles {
            let selected: HTML = candidate == role ? " selected" : ""
            html += "<option value=\"\(candidate.rawValue)\"\(selected)>\(label)</option>"
        }
        html += "</select>"
        let chosen = asked[SimulateRequest.policy.key] ?? (role == .group ? "any" : "grace")
        let parameters = ParameterFields.choice(group: "lab", selectName: SimulateRequest.policy.key, form: asked.fields, listings: listings)?.parameters ?? [:]
        html += ParameterFields(group: "lab", listings: listings, words: words, selectName: SimulateRequest.policy.key)
            .render(current: PolicyChoice(name: chosen, parameters: parameters), label: words["Policy"])
        html += "<label for=\"lab-from\">\(words["Rules from"])</label>" + FormField.input(SimulateRequest.from, id: "lab-from", value: asked[SimulateRequest.from.key] ?? start.iso)
        html += "<p><button class=\"primary\" type=\"submit\">\(words["Try it"])</button></p></form>"
        return (html, Asking(role: role, policy: chosen, parameters: parameters))
    }

    /// What the proposed policy traced (its line and day, then the text), and the form that
    /// applies the proposal from `from`, ending the result's section.
    static func traceAndApply(_ trace: [PolicyTraceLine]?, path: String, csrf: String, words: PageWords, asking: Asking,
                              fromField: RequestField<LocalDay>, from: String) -> HTML {
        var html: HTML = ""
        if let trace, !trace.isEmpty {
            html += "<details data-trace><summary>\(words["What the policy traced"]) (\(trace.count))</summary><ol class=\"trace\">"
                + trace.map { "<li><code>\($0.file):\($0.line)</code> \($0.day?.iso ?? "") \($0.text)</li>" as HTML }.joined() + "</ol></details>"
        }
        return html + "<form method=\"post\" action=\"\(path)/apply\" data-form=\"apply\">\(PageShell.csrf(csrf))"
            + FormField.input(SimulateRequest.role, value: asking.role.rawValue) + FormField.input(SimulateRequest.policy, value: asking.policy)
            + FormField.input(SimulateRequest.params, value: JSONValue.object(asking.parameters).jsonText)
            + "<label for=\"apply-from\">\(words["Apply from"])</label>" + FormField.input(fromField, id: "apply-from", value: from)
            + " <button class=\"primary\" type=\"submit\">\(words["Apply"])</button></form></section>"
    }

    /// The figures now and proposed side by side with the change, one `tr[data-figure]` each.
    static func comparison(_ current: HabitStatistics, _ proposed: HabitStatistics, countsIn unit: CountUnit, words: PageWords) -> HTML {
        func percent(_ value: Double) -> String { "\(Int((value * 100).rounded()))%" }
        func delta(_ a: Double, _ b: Double, percent: Bool) -> String {
            let d = percent ? ((b - a) * 100).rounded() : b - a
            return (d > 0 ? "+" : d < 0 ? "−" : "±") + Quantity.describe(abs(d)) + (percent ? " pt" : "")
        }
        var html: HTML = "<table class=\"compare\"><thead><tr><th scope=\"col\"></th><th scope=\"col\">\(words["Now"])</th><th scope=\"col\">\(words["Proposed"])</th><th scope=\"col\">\(words["Change"])</th></tr></thead><tbody>"
        let rows: [(String, String, String, String, String)] = [
            ("current", words["Current streak"], words.count(current.streak.current, unit), words.count(proposed.streak.current, unit),
             delta(Double(current.streak.current), Double(proposed.streak.current), percent: false)),
            ("longest", words["Longest streak"], words.count(current.streak.longest, unit), words.count(proposed.streak.longest, unit),
             delta(Double(current.streak.longest), Double(proposed.streak.longest), percent: false)),
            ("rate", words["Completion rate"], percent(current.completionRate), percent(proposed.completionRate),
             delta(current.completionRate, proposed.completionRate, percent: true)),
            ("score", words["Habit strength"], percent(current.score), percent(proposed.score), delta(current.score, proposed.score, percent: true)),
        ]
        for (key, label, a, b, d) in rows {
            html += "<tr data-figure=\"\(key)\"><th scope=\"row\">\(label)</th><td>\(a)</td><td>\(b)</td><td data-field=\"delta\">\(d)</td></tr>"
        }
        return html + "</tbody></table>"
    }

    private func result(_ view: SimulationView, asking: Asking) -> HTML {
        let simulation = view.simulation
        var html: HTML = "<section id=\"lab-result\" aria-live=\"polite\"><h4>\(asking.policy) · \(words[asking.role.rawValue])</h4>"
        html += Self.comparison(simulation.current.statistics, simulation.proposed.statistics, countsIn: simulation.current.countsIn, words: words)
        let differing = simulation.differingDays
        html += LabChartSVG(current: simulation.currentDays, proposed: simulation.proposedDays, differing: differing, words: words).render()
        html += "<p>\(words["Days that differ"]): \(differing.count)</p><ul class=\"diff\">"
        let proposedByDay = Dictionary(simulation.proposedDays.map { ($0.day, $0) }, uniquingKeysWith: { $1 })
        let currentByDay = Dictionary(simulation.currentDays.map { ($0.day, $0) }, uniquingKeysWith: { $1 })
        for day in differing {
            let a = currentByDay[day], b = proposedByDay[day]
            let before = a.map { words.state($0.state) } ?? "–", after = b.map { words.state($0.state) } ?? "–"
            html += "<li data-diff-day=\"\(day)\">\(day): \(before) → \(after), \(words["streak"]) \(a?.streak.current ?? 0) → \(b?.streak.current ?? 0)</li>"
        }
        html += "</ul>"
        return html + Self.traceAndApply(view.trace, path: path, csrf: csrf, words: words, asking: asking,
                                         fromField: RulesFromRequest.from, from: asked[SimulateRequest.from.key] ?? habit.startedOn.iso)
    }
}
