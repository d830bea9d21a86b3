import StackDay
import StackDayApplication

/// `/groups/{name}`: a group's figures, its members (each linking to its habit), its rules and
/// revisions, a month calendar of its days (previous and next month), the last year's heatmap and
/// score, "done all" while today is open, and the rule lab (`GroupLabSection`).
struct GroupPage {
    let detail: GroupDetailView
    /// The first day of the month shown.
    let month: LocalDay
    let words: PageWords
    let csrf: String
    /// The rule lab: a group or streak rule tried on the group's history.
    let lab: GroupLabSection
    /// The streak fold over the last two weeks (nil when the group's rules failed).
    var explanation: GroupExplanationView?
    /// Whether the page offers the language form (`PageShell.offersLanguage`).
    var offersLanguage = true
    /// The day the user's weeks begin on: the calendar's first column.
    var weekStart: WeekStart = .monday

    var group: HabitGroup { detail.group.group }
    var path: String { "/groups/" + PagePaths.segment(group.name) }

    func render(user: String, notice: String? = nil) -> String {
        var body: HTML = "<p><a href=\"/\">← \(words["Back to today"])</a></p><h2 id=\"group-name\">\(group.name)</h2>"
        switch detail.day.result {
        case .failure(let failure):
            body += "<p class=\"error\">\(failure.message)</p>"
        case .success(let summary):
            body += figures(summary) + members(summary) + monthCalendar(summary) + year(summary) + explained()
        }
        body += lab.render() + rules()
        return PageShell(words: words, user: user, csrf: csrf, title: group.name, offersLanguage: offersLanguage).render(body, notice: notice)
    }

    private func figures(_ summary: GroupSummary) -> HTML {
        FiguresStrip.render(summary.statistics, countsIn: .days, words: words)
    }

    private func members(_ summary: GroupSummary) -> HTML {
        let state = summary.today?.state ?? .notDue
        var html: HTML = "<h3>\(words["Today"]) · <span data-field=\"state\">\(words.state(state))</span></h3><ul class=\"members\">"
        for (habit, day) in zip(summary.members, summary.todayMembers) {
            html += "<li data-member=\"\(habit.name)\" data-state=\"\(day.state.rawValue)\"><a href=\"/habits/\(PagePaths.segment(habit.name))\">\(habit.name)</a>"
                + " · \(words.state(day.state)) · \(Quantity.describe(day.total))/\(Quantity.describe(day.goal))\(habit.unit.isEmpty ? "" : " " + habit.unit)</li>"
        }
        html += "</ul>"
        if state == .pending {
            html += "<form method=\"post\" action=\"\(path)/done\" data-action=\"group-done\">\(PageShell.csrf(csrf))<input type=\"hidden\" name=\"back\" value=\"\(path)\">"
                + "<button class=\"primary\" type=\"submit\">\(words["Done all"])</button></form>"
        }
        return html
    }

    /// The month's days as the group rule judged them; days outside the group's days are blank.
    private func monthCalendar(_ summary: GroupSummary) -> HTML {
        let grid = MonthGrid(first: month.startOfMonth, path: path, words: words, weekStart: weekStart)
        let entries = Dictionary(summary.days.map { ($0.day, $0) }, uniquingKeysWith: { $1 })
        return grid.heading() + grid.table(caption: group.name) { day -> HTML? in
            guard let entry = entries[day] else { return nil }
            let mark = DayMark(entry)
            return "<td data-day=\"\(day)\" data-state=\"\(mark.rawValue)\"><div class=\"cell\">\(day.day)"
                + "<span class=\"mark\" aria-hidden=\"true\">\(mark.symbol)</span><span class=\"sr\"> \(words.mark(mark))</span></div></td>"
        }
    }

    /// The last year's days as a heatmap, the score below it (as a habit's page draws them).
    private func year(_ summary: GroupSummary) -> HTML {
        guard let today = summary.today?.day else { return "" }
        var chart = YearChartSVG(name: group.name, days: summary.days, scores: summary.scores,
                                 range: LocalDayRange(today.adding(days: -364).startOfWeek(weekStart), today), words: words)
        chart.weekStart = weekStart
        return "<h3>\(words["Last year"]) · \(words["Score"])</h3>\(chart.render())"
    }

    /// Why the streak is what it is: the fold's last days, each with the group's state, the
    /// streak after it and the reason, newest last (`group explain`).
    private func explained() -> HTML {
        guard let explanation else { return "" }
        let language: ReportLanguage = words.language == .ko ? .korean : .english
        var html: HTML = "<h3 id=\"explain\">\(words["Why the streak is what it is"])</h3><ol class=\"explain\">"
        for step in explanation.explanation.steps {
            html += "<li data-day=\"\(step.entry.day)\" data-state=\"\(step.entry.state.rawValue)\">\(step.entry.day.iso) · \(words.state(step.entry.state))"
                + " · \(words["streak"]) <span data-field=\"streak\">\(step.step.streak.current)</span> · \(GroupExplanationView.why(step, words: Words(language)))</li>"
        }
        return html + "</ol>"
    }

    /// The rules in force and every revision, newest first.
    private func rules() -> HTML {
        let view = detail.group
        var html: HTML = "<h3 id=\"revisions\">\(words["Rules"])</h3><ol class=\"revisions\" reversed>"
        for revision in view.group.revisions.reversed() {
            html += "<li data-revision=\"\(revision.number)\">\(revision.effectiveFrom.iso): \(view.members(of: revision).joined(separator: ", "))"
                + " · \(words["rule"]) <code>\(revision.rule.described())</code> · \(words["streak rule"]) <code>\(revision.streak.described())</code></li>"
        }
        return html + "</ol>"
    }
}
