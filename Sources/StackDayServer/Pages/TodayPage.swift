import Foundation
import StackDay
import StackDayApplication
import StackDayExchange

/// `/`: one card per active habit with its progress, state, streak and period, and its check-in:
/// a yes/no habit's button toggles today (done ↔ not done); a counted one takes an amount and lists
/// today's records, each with its own remove button; a limit (`at-most`) reads "1 of at most 2" and
/// warns when over; a skipped day can be taken back. Groups come first, each a section that folds
/// with its state, its members' and a "done all" form. Then the form that adds a habit.
struct TodayPage {
    let view: TodayView
    let words: PageWords
    let csrf: String
    /// Whether the page offers the language form (`PageShell.offersLanguage`).
    var offersLanguage = true
    /// The policies each role can name, for the add-habit form.
    let policies: [PolicyRole: [PolicyListing]]
    /// The list's ETag, for the script's polling.
    let etag: String
    /// Today's records of each counted habit that has any, oldest first.
    var records: [UUID: [Completion]] = [:]
    /// The user's zone, for the times of today's records.
    var zone: TimeZone = .gmt
    /// The archived habits, listed after today's with a button that brings each back.
    var archived: [Habit] = []

    /// A habit checked in with one tap (done or not): a goal of 1 and no limit.
    static func isOneTap(_ summary: HabitSummary) -> Bool {
        summary.revision.goal == 1 && summary.revision.progress.atMostLimit == nil
    }

    func render(user: String, notice: String? = nil) -> String {
        let body: HTML = "<h2>\(words["Today"]), <span id=\"day\">\(view.day)</span></h2>"
            + "<ul class=\"habits\" id=\"today-list\" data-etag=\"\(etag)\">\(cards())</ul>" + addForm() + archivedList()
        return PageShell(words: words, user: user, csrf: csrf, title: words["Today"], offersLanguage: offersLanguage).render(body, notice: notice)
    }

    /// The cards alone (what `/today.html` answers).
    func rows() -> String { cards().markup }

    private func cards() -> HTML {
        if view.rows.isEmpty { return "<li class=\"empty\">\(words["No active habits yet. Add one below."])</li>" }
        return view.groups.map(group).joined() + view.rows.map(row).joined()
    }

    /// A group's section: its name, state, members done and streak in a summary that folds the
    /// members and the "done all" form away.
    private func group(_ result: Result<GroupSummary, GroupFailure>) -> HTML {
        let group = result.group
        let name = group.name, path = "/groups/" + PagePaths.segment(group.name)
        var html: HTML = "<li class=\"group\"><section data-group=\"\(name)\" aria-label=\"\(words["Group"]) \(name)\"><details open><summary>"
        let summary: GroupSummary
        switch result {
        case .success(let judged): summary = judged
        case .failure(let failure):
            html += "<strong>\(name)</strong></summary><p class=\"error\">\(failure.message)</p>"
            return html + "<a href=\"\(path)\">\(words["Open"])<span class=\"sr\"> \(name)</span></a></details></section></li>"
        }
        let state = summary.today?.state ?? .notDue
        let done = Words(words.report).say("{done} of {members}", ("done", String(summary.doneToday)), ("members", String(summary.todayMembers.count)))
        html += "<strong>\(name)</strong> <span data-field=\"state\">\(words.state(state))</span> <span data-field=\"done\">\(done)</span>"
            + " <span>\(words["streak"]) <span data-field=\"streak\">\(words.count(summary.statistics.streak.current, .days))</span></span></summary>"
        let percent = Int((min(1, max(0, summary.today?.progress ?? 0)) * 100).rounded())
        html += "<div class=\"bar\" role=\"progressbar\" aria-label=\"\(name)\" aria-valuenow=\"\(percent)\" aria-valuemin=\"0\" aria-valuemax=\"100\"><span style=\"width:\(percent)%\"></span></div>"
        html += "<ul class=\"members\" aria-label=\"\(words["Members"]) (\(name))\">" + summary.todayMembers.map { member -> HTML in
            "<li data-member=\"\(member.name)\" data-state=\"\(member.state.rawValue)\">\(member.name) · \(words.state(member.state))</li>"
        }.joined() + "</ul><div class=\"actions\">"
        if state == .pending {
            html += "<form method=\"post\" action=\"\(path)/done\" data-action=\"group-done\">\(PageShell.csrf(csrf))"
                + "<button class=\"primary\" type=\"submit\">\(words["Done all"])<span class=\"sr\"> \(name)</span></button></form>"
        }
        return html + "<a class=\"button\" href=\"\(path)\">\(words["Open"])<span class=\"sr\"> \(name)</span></a></div></details></section></li>"
    }

    private func row(_ result: Result<HabitSummary, HabitFailure>) -> HTML {
        let habit: Habit
        switch result {
        case .success(let summary): habit = summary.habit
        case .failure(let failure): habit = failure.habit
        }
        let name = habit.name
        let path = "/habits/" + PagePaths.segment(habit.name)
        let head: HTML = "<div class=\"head\"><a href=\"\(path)\">\(name)</a>"
        guard case .success(let summary) = result, let entry = summary.today else {
            return "<li class=\"habit\" data-habit=\"\(name)\">\(head)</div><p class=\"error\">\(result.failure?.message ?? "")</p></li>"
        }
        let goal = summary.revision.goal
        let unit = habit.unit.isEmpty ? "" : " " + habit.unit
        let color = PagePalette.attribute(habit)
        let limit = summary.revision.progress.atMostLimit
        let over = limit.map { entry.total > $0 } ?? false
        var html: HTML
        if let limit {
            // A limit fills toward the limit, and past it the card warns.
            html = "<li class=\"habit\(over ? " over" : "")\" data-limit=\"\(over ? "over" : "within")\" data-habit=\"\(name)\"\(color)>\(head)"
            let percent = limit > 0 ? Int((min(1, entry.total / limit) * 100).rounded()) : (entry.total > 0 ? 100 : 0)
            html += "<span data-field=\"state\">\(over ? words["over the limit"] : words["within the limit"])</span></div>"
            html += "<div class=\"bar limit\" role=\"progressbar\" aria-label=\"\(name)\" aria-valuenow=\"\(percent)\" aria-valuemin=\"0\" aria-valuemax=\"100\"><span style=\"width:\(percent)%\"></span></div>"
            html += "<div class=\"figures\"><span data-field=\"total\">\(words.atMost(entry.total, limit: limit))\(unit)</span>"
        } else {
            html = "<li class=\"habit\" data-habit=\"\(name)\"\(color)>\(head)"
            let percent = Int((min(1, max(0, entry.progress)) * 100).rounded())
            html += "<span data-field=\"state\">\(words.state(entry.state))</span></div>"
            html += "<div class=\"bar\" role=\"progressbar\" aria-label=\"\(name)\" aria-valuenow=\"\(percent)\" aria-valuemin=\"0\" aria-valuemax=\"100\"><span style=\"width:\(percent)%\"></span></div>"
            html += "<div class=\"figures\"><span><span data-field=\"total\">\(Quantity.describe(entry.total))/\(Quantity.describe(goal))</span>\(unit)</span>"
        }
        if let period = PeriodText(summary) { html += "<span data-field=\"period\">\(period.text(words.report))</span>" }
        html += "<span>\(words["streak"]) <span data-field=\"streak\">\(words.count(summary.statistics.streak.current, summary.countsIn))</span></span></div>"
        let csrfField = PageShell.csrf(csrf)
        html += "<div class=\"actions\">"
        if Self.isOneTap(summary) {
            // One button that toggles today: done takes the day's record back.
            if entry.total > 0 {
                html += "<form method=\"post\" action=\"\(path)/undo\" data-action=\"undo\">\(csrfField)"
                    + "<button class=\"done\" type=\"submit\" aria-pressed=\"true\">\(words["Done"]) ✓<span class=\"sr\"> \(name) · \(words["tap to take back"])</span></button></form>"
            } else {
                html += "<form method=\"post\" action=\"\(path)/record\" data-action=\"record\">\(csrfField)"
                    + FormField.input(RecordRequest.amount, value: "1") + "<button class=\"primary\" type=\"submit\" aria-pressed=\"false\">\(words["Done"])<span class=\"sr\"> \(name)</span></button></form>"
            }
        } else {
            // A step at a tap each way: + records the habit's step (neutral under a limit, where
            // more is no progress), − takes back today's latest record, named for a screen reader.
            let primary: HTML = limit == nil ? " class=\"primary\"" : ""
            let step = Quantity.describe(habit.stepAmount)
            html += "<div class=\"steps\">"
            if let latest = records[habit.id]?.last {
                let time = clockTime(latest)
                html += "<form method=\"post\" action=\"\(path)/remove\" data-action=\"step-back\">\(csrfField)" + FormField.input(RemoveRecordRequest.id, value: latest.id.uuidString)
                    + "<button type=\"submit\">−<span class=\"sr\"> \(words["Remove"]) \(Quantity.describe(latest.amount))\(unit) · \(time) (\(name))</span></button></form>"
            }
            html += "<form method=\"post\" action=\"\(path)/record\" data-action=\"step\">\(csrfField)" + FormField.input(RecordRequest.amount, value: step)
                + "<button\(primary) type=\"submit\">+\(step)\(unit)<span class=\"sr\"> \(name)</span></button></form></div>"
            let id = "amount-" + PagePaths.segment(habit.id.uuidString)
            html += "<form method=\"post\" action=\"\(path)/record\" data-action=\"record\">\(csrfField)"
                + FormField.input(RecordRequest.amount, id: id, value: step, attributes: [("min", "0"), ("aria-label", "\(words["Amount"]) (\(habit.name))")])
                + "<button type=\"submit\">\(words["Record"])<span class=\"sr\"> \(name)</span></button></form>"
        }
        if entry.state == .skipped {
            html += "<form method=\"post\" action=\"\(path)/unskip\" data-action=\"unskip\">\(csrfField)<button type=\"submit\">\(words["Skipped · take back"])<span class=\"sr\"> \(name)</span></button></form>"
        } else {
            html += "<form method=\"post\" action=\"\(path)/skip\" data-action=\"skip\">\(csrfField)<button type=\"submit\">\(words["Skip"])<span class=\"sr\"> \(name)</span></button></form>"
        }
        html += "</div>"
        if let today = records[habit.id], !today.isEmpty {
            // Each of today's records, to take back by itself (not "the latest", unseen).
            html += "<ul class=\"records\" aria-label=\"\(words["Today's records"]) (\(name))\">"
            for record in today {
                let time = clockTime(record)
                let note: HTML? = record.note.map { " <q>\($0)</q>" }
                html += "<li data-record=\"\(record.id.uuidString)\"><span>\(Quantity.describe(record.amount))\(unit) · \(time)\(note)</span>"
                    + "<form method=\"post\" action=\"\(path)/remove\" data-action=\"remove\">\(csrfField)" + FormField.input(RemoveRecordRequest.id, value: record.id.uuidString)
                    + "<button type=\"submit\">\(words["Remove"])<span class=\"sr\"> \(Quantity.describe(record.amount)) · \(time)</span></button></form></li>"
            }
            html += "</ul>"
        }
        return html + "</li>"
    }

    /// When a record was made, `HH:MM` in the user's zone.
    private func clockTime(_ record: Completion) -> String {
        String(InstantText.local(record.recordedAt, in: zone).dropFirst(11).prefix(5))
    }

    /// The archived habits, each with its last day and an unarchive button (nothing when none).
    private func archivedList() -> HTML {
        guard !archived.isEmpty else { return "" }
        var html: HTML = "<details id=\"archived\"><summary>\(words["Archived"]) (\(archived.count))</summary><ul class=\"archived\">"
        for habit in archived {
            let name = habit.name
            let path = "/habits/" + PagePaths.segment(habit.name)
            html += "<li data-archived=\"\(name)\"><a href=\"\(path)\">\(name)</a> <span class=\"hint\">\(words["until"]) \(habit.archivedOn?.iso ?? "")</span>"
                + "<form method=\"post\" action=\"\(path)/unarchive\" data-action=\"unarchive\">\(PageShell.csrf(csrf))<input type=\"hidden\" name=\"back\" value=\"/\">"
                + "<button type=\"submit\">\(words["Unarchive"])<span class=\"sr\"> \(name)</span></button></form></li>"
        }
        return html + "</ul></details>"
    }

    private func addForm() -> HTML {
        var html: HTML = "<details id=\"add\"><summary>\(words["Add a habit"])</summary><form method=\"post\" action=\"/habits\" data-form=\"add-habit\">"
        html += PageShell.csrf(csrf)
        html += "<label for=\"new-name\">\(words["Name"])</label>"
            + FormField.input(CreateHabitRequest.name, id: "new-name", value: nil, attributes: [("required", ""), ("maxlength", "200"), ("autocomplete", "off")])
        html += "<label for=\"new-goal\">\(words["Goal a day"])</label>" + FormField.input(HabitRules.goal, id: "new-goal", value: "1", attributes: [("min", "0")])
        html += "<label for=\"new-unit\">\(words["Unit"])</label>" + FormField.input(HabitRules.unit, id: "new-unit", value: nil, attributes: [("autocomplete", "off")])
        for (role, choice, label) in [(PolicyRole.schedule, PolicyChoice.daily, "Schedule"), (.progress, .goal, "Progress"), (.streak, .strict, "Streak rule")] {
            html += ParameterFields(role: role, listings: policies[role] ?? [], words: words).render(current: choice, label: words[label])
            if role == .schedule { html += ParameterFields.scheduleText(id: "new-schedule-text", words: words) }
        }
        html += ParameterFields.reminders(id: "new-remind", current: [], words: words)
        return html + "<p><button class=\"primary\" type=\"submit\">\(words["Create"])</button></p></form></details>"
    }
}
