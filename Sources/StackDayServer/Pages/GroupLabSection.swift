import StackDay
import StackDayApplication

/// The rule lab on a group's page: a form to try a group rule or a streak rule from a day on the
/// group's real history, and when one was tried, the current and proposed figures side by side,
/// the days judged differently, and the form that applies it as the group's next revision.
struct GroupLabSection {
    let group: HabitGroup
    let path: String
    let words: PageWords
    let csrf: String
    /// The policies serving the group or the streak role.
    let listings: [PolicyListing]
    /// What the form asked for (to fill it again), and what it gave.
    let asked: FormBody
    let simulation: GroupSimulationView?
    /// Why the lab could not try what was asked.
    let error: String?

    func render() -> HTML {
        var html: HTML = "<h3 id=\"lab\">\(words["Rule lab"])</h3><form method=\"get\" action=\"\(path)#lab\" data-form=\"simulate\"><input type=\"hidden\" name=\"lab\" value=\"1\">"
        let role = asked[SimulateRequest.role.key] ?? PolicyRole.group.rawValue
        html += "<label for=\"lab-role\">\(words["Role"])</label><select id=\"lab-role\" name=\"\(SimulateRequest.role.key)\">"
        for candidate in [PolicyRole.group, .streak] {
            let selected: HTML = candidate.rawValue == role ? " selected" : ""
            html += "<option value=\"\(candidate.rawValue)\"\(selected)>\(words[candidate == .group ? "rule" : "streak rule"])</option>"
        }
        html += "</select>"
        let chosen = asked[SimulateRequest.policy.key] ?? (role == PolicyRole.group.rawValue ? "any" : "grace")
        let parameters = ParameterFields.choice(group: "lab", selectName: SimulateRequest.policy.key, form: asked.fields, listings: listings)?.parameters ?? [:]
        html += ParameterFields(group: "lab", listings: listings, words: words, selectName: SimulateRequest.policy.key)
            .render(current: PolicyChoice(name: chosen, parameters: parameters), label: words["Policy"])
        html += "<label for=\"lab-from\">\(words["Rules from"])</label>" + FormField.input(SimulateRequest.from, id: "lab-from", value: asked[SimulateRequest.from.key] ?? group.startedOn.iso)
        html += "<p><button class=\"primary\" type=\"submit\">\(words["Try it"])</button></p></form>"
        if let error { html += "<p class=\"error\" role=\"alert\">\(error)</p>" }
        if let simulation, case .success(let current) = simulation.simulation.current {
            html += result(simulation, current: current, parameters: parameters)
        }
        return html
    }

    private func result(_ view: GroupSimulationView, current: GroupSummary, parameters: [String: JSONValue]) -> HTML {
        var html: HTML = "<section id=\"lab-result\" aria-live=\"polite\"><h4>\(view.simulation.proposal.choice(for: view.role).name) · \(words[view.role == .group ? "rule" : "streak rule"])</h4>"
        guard case .success(let proposed) = view.simulation.proposed else {
            if case .failure(let failure) = view.simulation.proposed { html += "<p class=\"error\" role=\"alert\">\(failure.message)</p>" }
            return html + "</section>"
        }
        html += LabSection.comparison(current.statistics, proposed.statistics, countsIn: .days, words: words)
        let before = Dictionary(current.days.map { ($0.day, $0.state) }, uniquingKeysWith: { $1 })
        let differing = proposed.days.filter { before[$0.day] != $0.state }
        html += "<p>\(words["Days that differ"]): \(differing.count)</p><ul class=\"diff\">"
        for entry in differing {
            html += "<li data-diff-day=\"\(entry.day)\">\(entry.day): \(before[entry.day].map(words.state) ?? "–") → \(words.state(entry.state))</li>"
        }
        html += "</ul>"
        if let trace = view.trace, !trace.isEmpty {
            html += "<details data-trace><summary>\(words["What the policy traced"]) (\(trace.count))</summary><ol class=\"trace\">"
                + trace.map { "<li><code>\($0.file):\($0.line)</code> \($0.day?.iso ?? "") \($0.text)</li>" as HTML }.joined() + "</ol></details>"
        }
        html += "<form method=\"post\" action=\"\(path)/apply\" data-form=\"apply\">\(PageShell.csrf(csrf))"
            + FormField.input(SimulateRequest.role, value: view.role.rawValue) + FormField.input(SimulateRequest.policy, value: view.simulation.proposal.choice(for: view.role).name)
            + FormField.input(SimulateRequest.params, value: JSONValue.object(parameters).jsonText)
            + "<label for=\"apply-from\">\(words["Apply from"])</label>" + FormField.input(SimulateRequest.from, id: "apply-from", value: view.from.iso)
            + " <button class=\"primary\" type=\"submit\">\(words["Apply"])</button></form></section>"
        return html
    }
}
