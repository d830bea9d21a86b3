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
        let (form, asking) = LabSection.form(path: path, words: words, listings: listings, asked: asked,
                                             roles: [(.group, words["rule"]), (.streak, words["streak rule"])], defaultRole: .group, start: group.startedOn)
        var html = form
        if let error { html += "<p class=\"error\" role=\"alert\">\(error)</p>" }
        if let simulation, case .success(let current) = simulation.simulation.current {
            html += result(simulation, current: current, asking: asking)
        }
        return html
    }

    private func result(_ view: GroupSimulationView, current: GroupSummary, asking: LabSection.Asking) -> HTML {
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
        let applying = LabSection.Asking(role: view.role, policy: view.simulation.proposal.choice(for: view.role).name, parameters: asking.parameters)
        return html + LabSection.traceAndApply(view.trace, path: path, csrf: csrf, words: words, asking: applying,
                                               fromField: SimulateRequest.from, from: view.from.iso)
    }
}
