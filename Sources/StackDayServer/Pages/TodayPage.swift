import StackDay
import StackDayApplication

/// `/`: one card per active habit with its progress, state, streak and period, and forms to
/// record, undo and skip; then the form that adds a habit.
struct TodayPage {
    let view: TodayView
    let words: PageWords
    let csrf: String
    /// The policies each role can name, for the add-habit form.
    let policies: [PolicyRole: [PolicyListing]]
    /// The list's ETag, for the script's polling.
    let etag: String

    func render(user: String, notice: String? = nil) -> String {
        let body = "<h2>\(words["Today"]), <span id=\"day\">\(view.day.iso)</span></h2>"
            + "<ul class=\"habits\" id=\"today-list\" data-etag=\"\(HTMLText.escape(etag))\">\(rows())</ul>" + addForm()
        return PageShell(words: words, user: user, csrf: csrf, title: words["Today"]).render(body, notice: notice)
    }

    /// The cards alone (what `/today.html` answers).
    func rows() -> String {
        if view.rows.isEmpty { return "<li class=\"empty\">\(words["No active habits yet. Add one below."])</li>" }
        return view.rows.map(row).joined()
    }

    private func row(_ result: Result<HabitSummary, HabitFailure>) -> String {
        let habit: Habit
        switch result {
        case .success(let summary): habit = summary.habit
        case .failure(let failure): habit = failure.habit
        }
        let name = HTMLText.escape(habit.name)
        let path = "/habits/" + PagePaths.segment(habit.name)
        var html = "<li class=\"habit\" data-habit=\"\(name)\"><div class=\"head\"><a href=\"\(path)\">\(name)</a>"
        guard case .success(let summary) = result, let entry = summary.today else {
            return html + "</div><p class=\"error\">\(HTMLText.escape(result.failure?.message ?? ""))</p></li>"
        }
        let goal = summary.revision.goal
        let unit = habit.unit.isEmpty ? "" : " " + HTMLText.escape(habit.unit)
        let percent = Int((min(1, max(0, entry.progress)) * 100).rounded())
        html += "<span data-field=\"state\">\(words.state(entry.state))</span></div>"
        html += "<div class=\"bar\" role=\"progressbar\" aria-label=\"\(name)\" aria-valuenow=\"\(percent)\" aria-valuemin=\"0\" aria-valuemax=\"100\"><span style=\"width:\(percent)%\"></span></div>"
        html += "<div class=\"figures\"><span><span data-field=\"total\">\(Quantity.describe(entry.total))/\(Quantity.describe(goal))</span>\(unit)</span>"
        if let period = PeriodText(summary) { html += "<span data-field=\"period\">\(HTMLText.escape(period.text(words.report)))</span>" }
        html += "<span>\(words["streak"]) <span data-field=\"streak\">\(words.count(summary.statistics.streak.current, summary.countsIn))</span></span></div>"
        let csrfField = PageShell.csrfField(csrf)
        let oneTap = goal == 1
        html += "<div class=\"actions\">"
        html += "<form method=\"post\" action=\"\(path)/record\" data-action=\"record\">\(csrfField)"
        if oneTap {
            html += "<input type=\"hidden\" name=\"amount\" value=\"1\"><button class=\"primary\" type=\"submit\">\(words["Done"])<span class=\"sr\"> \(name)</span></button>"
        } else {
            let id = "amount-" + PagePaths.segment(habit.id.uuidString)
            html += "<input id=\"\(id)\" name=\"amount\" type=\"number\" inputmode=\"decimal\" step=\"any\" min=\"0\" value=\"1\" aria-label=\"\(words["Amount"]) (\(name))\">"
                + "<button class=\"primary\" type=\"submit\">\(words["Record"])<span class=\"sr\"> \(name)</span></button>"
        }
        html += "</form>"
        html += "<form method=\"post\" action=\"\(path)/undo\" data-action=\"undo\">\(csrfField)<button type=\"submit\">\(words["Undo"])<span class=\"sr\"> \(name)</span></button></form>"
        html += "<form method=\"post\" action=\"\(path)/skip\" data-action=\"skip\">\(csrfField)<button type=\"submit\">\(words["Skip"])<span class=\"sr\"> \(name)</span></button></form>"
        return html + "</div></li>"
    }

    private func addForm() -> String {
        var html = "<details id=\"add\"><summary>\(words["Add a habit"])</summary><form method=\"post\" action=\"/habits\" data-form=\"add-habit\">"
        html += PageShell.csrfField(csrf)
        html += "<label for=\"new-name\">\(words["Name"])</label><input id=\"new-name\" name=\"name\" required maxlength=\"200\" autocomplete=\"off\">"
        html += "<label for=\"new-goal\">\(words["Goal a day"])</label><input id=\"new-goal\" name=\"goal\" type=\"number\" inputmode=\"decimal\" step=\"any\" min=\"0\" value=\"1\">"
        html += "<label for=\"new-unit\">\(words["Unit"])</label><input id=\"new-unit\" name=\"unit\" autocomplete=\"off\">"
        for (role, choice, label) in [(PolicyRole.schedule, PolicyChoice.daily, "Schedule"), (.progress, .goal, "Progress"), (.streak, .strict, "Streak rule")] {
            html += ParameterFields(role: role, listings: policies[role] ?? [], words: words).render(current: choice, label: words[label])
            if role == .schedule { html += ParameterFields.scheduleText(id: "new-schedule-text", words: words) }
        }
        return html + "<p><button class=\"primary\" type=\"submit\">\(words["Create"])</button></p></form></details>"
    }
}
