import StackDay
import StackDayApplication

/// One self-contained HTML page (inline CSS and SVG, nothing fetched): today's habits with their
/// progress, the weekly report, and per habit a year heatmap and a score line. The dashboard
/// `stackday serve` shows a signed-in user, and the page `stackday report html` writes.
public struct DashboardPage {
    public let title: String
    /// The signed-in user, whose page gets a sign-out button.
    public let user: String?
    public let view: DashboardView
    /// The words of the page, its `<html lang>` and its headings (the week's text is the view's).
    let words: PageWords

    public init(title: String, user: String?, view: DashboardView, language: ReportLanguage = .english) {
        self.title = title
        self.user = user
        self.view = view
        words = PageWords(language: language == .korean ? .ko : .en)
    }

    var today: LocalDay { view.today.day }
    var todayRows: [Result<HabitSummary, HabitFailure>] { view.today.rows }
    var weekText: String { view.week.text }
    var panels: [DashboardView.Panel] { view.panels }

    /// The day the user's weeks begin on: the week report's first day's.
    var weekStart: WeekStart { WeekStart(isoWeekday: view.week.report.firstDay.weekday) ?? .monday }

    /// The year shown: the 53 weeks up to today.
    public var year: LocalDayRange { LocalDayRange(today.adding(days: -364).startOfWeek(weekStart), today) }

    public func render() -> String {
        var body: HTML = "<header><h1>\(title)</h1>"
        if let user {
            body += "<p class=\"who\">\(words["Signed in as"]) <strong id=\"user\">\(user)</strong> "
                + "<form method=\"post\" action=\"/session/end\"><button type=\"submit\">\(words["Sign out"])</button></form></p>"
        }
        body += "</header>\n<section id=\"today\"><h2>\(words["Today,"]) <span id=\"day\">\(today)</span></h2>\n"
        if todayRows.isEmpty {
            body += "<p>\(words["No active habits."])</p>"
        } else {
            body += "<table><thead><tr>" + ["Habit", "Today's progress", "Done", "State", "Streak"].map { "<th>\(words[$0])</th>" as HTML }.joined() + "</tr></thead><tbody>"
            for row in todayRows { body += todayRow(row) }
            body += "</tbody></table>"
        }
        if !view.today.groups.isEmpty {
            body += "<h3>\(words["Groups"])</h3><table><thead><tr>" + ["Group", "Today's progress", "Done", "State", "Streak"].map { "<th>\(words[$0])</th>" as HTML }.joined()
                + "</tr></thead><tbody>" + view.today.groups.map(groupRow).joined() + "</tbody></table>"
        }
        body += "</section>\n<section id=\"week\"><h2>\(words["This week"])</h2><pre>\(weekText)</pre></section>\n"
        for panel in panels {
            body += "<section class=\"habit\" data-habit=\"\(panel.habit.name)\"><h2>\(panel.habit.name)</h2>"
            switch panel.content {
            case .success(let content):
                var chart = YearChartSVG(timeline: content.timeline, scores: content.scores.map { ($0.day, $0.score) }, range: year,
                                         words: words)
                chart.weekStart = weekStart
                body += "<h3>\(words["Last year · Score"])</h3>\(chart.render())"
            case .failure(let failure):
                body += "<p class=\"error\">\(failure.message)</p>"
            }
            body += "</section>\n"
        }
        let page: HTML = """
        <!DOCTYPE html>
        <html lang="\(words.language.rawValue)"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(title)</title><style>\(trusted: Self.style)</style></head><body>
        \(body)</body></html>
        """
        return page.markup
    }

    /// A group's row of today: its progress, members done, state and streak, or its error.
    func groupRow(_ row: Result<GroupSummary, GroupFailure>) -> HTML {
        switch row {
        case .failure(let failure):
            return "<tr class=\"group\" data-group=\"\(failure.group.name)\"><td class=\"name\">\(failure.group.name)</td>"
                + "<td colspan=\"4\" class=\"error\">\(failure.message)</td></tr>"
        case .success(let summary):
            let percent = Int((min(1, max(0, summary.today?.progress ?? 0)) * 100).rounded())
            let done = Words(words.report).say("{done} of {members}", ("done", String(summary.doneToday)), ("members", String(summary.todayMembers.count)))
            return "<tr class=\"group\" data-group=\"\(summary.group.name)\"><td class=\"name\">\(summary.group.name)</td>"
                + "<td class=\"progress\"><div class=\"bar\" role=\"progressbar\" aria-label=\"\(summary.group.name)\" aria-valuenow=\"\(percent)\" aria-valuemin=\"0\" aria-valuemax=\"100\">"
                + "<div style=\"width:\(percent)%\"></div></div> <span class=\"percent\">\(percent)%</span></td>"
                + "<td class=\"done\">\(done)</td><td class=\"state\">\((summary.today?.state ?? .notDue).rawValue)</td>"
                + "<td class=\"streak\">\(summary.statistics.streak.current)</td></tr>"
        }
    }

    func todayRow(_ row: Result<HabitSummary, HabitFailure>) -> HTML {
        switch row {
        case .failure(let failure):
            return "<tr class=\"habit\" data-habit=\"\(failure.habit.name)\"><td class=\"name\">\(failure.habit.name)</td>"
                + "<td colspan=\"4\" class=\"error\">\(failure.message)</td></tr>"
        case .success(let summary):
            let entry = summary.today
            let progress = min(1, max(0, entry?.progress ?? 0))
            let unit = summary.habit.unit
            let done = "\(Quantity.describe(entry?.total ?? 0))/\(Quantity.describe(summary.revision.goal))" + (unit.isEmpty ? "" : " \(unit)")
            let percent = Int((progress * 100).rounded())
            return "<tr class=\"habit\" data-habit=\"\(summary.habit.name)\"><td class=\"name\">\(summary.habit.name)</td>"
                + "<td class=\"progress\"><div class=\"bar\" role=\"progressbar\" aria-valuenow=\"\(percent)\" aria-valuemin=\"0\" aria-valuemax=\"100\">"
                + "<div style=\"width:\(percent)%\"></div></div> <span class=\"percent\">\(percent)%</span></td>"
                + "<td class=\"done\">\(done)</td><td class=\"state\">\(entry?.state.rawValue ?? "notDue")</td>"
                + "<td class=\"streak\">\(summary.statistics.streak.current)</td></tr>"
        }
    }

    static let style = """
        body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#1f2328}
        header{display:flex;justify-content:space-between;align-items:baseline;flex-wrap:wrap}
        header form{display:inline}
        h1{font-size:1.4rem}h2{font-size:1.1rem;margin:1.8rem 0 .6rem}h3{font-size:.85rem;color:#57606a;margin:.8rem 0 .3rem}
        table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35rem .6rem;border-bottom:1px solid #d8dee4}
        .bar{display:inline-block;width:8rem;height:.6rem;background:#ebedf0;border-radius:3px;vertical-align:middle}
        .bar div{height:100%;background:#2da44e;border-radius:3px}
        pre{font-size:14px;background:#f6f8fa;padding:1rem;border-radius:6px;overflow-x:auto}
        .error{color:#cf222e}svg{display:block;width:100%;height:auto}svg text{fill:#57606a;font:10px system-ui,sans-serif}
        .year-box{overflow-x:auto}.year-box svg.year{min-width:640px}svg.glyph-key{display:inline-block;width:16px;height:16px}
        ul.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.4rem .9rem;font-size:.9rem}ul.legend li{display:flex;gap:.35rem;align-items:center}
        button{font:inherit;padding:.25rem .8rem}
        """
}
