import StackDay
import StackDayApplication

/// `/habits/{name}`: the habit's figures, a month calendar (previous and next month), the year's
/// heatmap and score on one axis, the records of a day, and the forms that edit, archive or
/// unarchive it.
struct HabitPage {
    let detail: HabitDetailView
    /// The month shown, and the habit's days in it (nil: its policy failed).
    let month: LocalDay
    let calendar: CalendarView
    let dashboard: DashboardView.Panel?
    let day: LocalDay
    let records: [Completion]
    let today: LocalDay
    let words: PageWords
    let csrf: String
    /// Whether the page offers the language form (`PageShell.offersLanguage`).
    var offersLanguage = true
    let policies: [PolicyRole: [PolicyListing]]
    let lab: LabSection
    /// The day the user's weeks begin on: the calendars' first column and top row.
    var weekStart: WeekStart = .monday
    /// Where the habit stands in the list (0-based) and how many habits there are.
    var place: (index: Int, count: Int) = (0, 1)

    var habit: Habit { detail.habit }
    var path: String { "/habits/" + PagePaths.segment(habit.name) }

    func render(user: String, notice: String? = nil) -> String {
        let swatch: HTML = habit.colorTag == nil ? "" : "<span class=\"swatch\"\(PagePalette.attribute(habit)) aria-hidden=\"true\"></span>"
        var body: HTML = "<p><a href=\"/\">← \(words["Back to today"])</a></p><h2 id=\"habit-name\">\(swatch)\(habit.name)"
        if habit.archivedOn != nil { body += " <span class=\"hint\">(\(words["archived"]))</span>" }
        body += "</h2>"
        if let question = habit.question { body += "<p class=\"question\" data-field=\"question\">\(question)</p>" }
        if let details = habit.details { body += "<p class=\"hint description\" data-field=\"description\">\(details)</p>" }
        body += figures() + monthCalendar() + year() + recordsOfDay() + lab.render() + revisions() + editForms()
        return PageShell(words: words, user: user, csrf: csrf, title: habit.name, offersLanguage: offersLanguage).render(body, notice: notice)
    }

    private func figures() -> HTML {
        switch detail.result {
        case .failure(let failure): return "<p class=\"error\">\(failure.message)</p>"
        case .success(let summary):
            var html = FiguresStrip.render(summary.statistics, countsIn: summary.countsIn, words: words)
            if let period = PeriodText(summary) { html += "<p data-field=\"period\">\(period.text(words.report))</p>" }
            return html
        }
    }

    private func monthCalendar() -> HTML {
        let grid = MonthGrid(first: month.startOfMonth, path: path, words: words, weekStart: weekStart)
        let first = grid.first, last = grid.last
        var html = grid.heading()
        guard case .days(let timeline, _)? = calendar.sheets.first else {
            if let failure = calendar.failures.first { html += "<p class=\"error\">\(failure.message)</p>" }
            return html
        }
        html += grid.table(caption: habit.name, attributes: PagePalette.attribute(habit)) { day -> HTML? in
            guard let entry = timeline.calendarEntry(on: day) else { return nil }
            let mark = DayMark(entry)
            // Under a limit (`at-most`), a judged day is within it or over it, said so.
            let limit = habit.revision(on: day).progress.atMostLimit
            let limited: (key: String, words: String)? = limit.flatMap { limit in
                guard [.met, .missed, .partial].contains(mark) else { return nil }
                return entry.total > limit ? ("over", words["over the limit"]) : ("within", words["within the limit"])
            }
            let label = "\(day.iso): \(limited?.words ?? words.mark(mark)), \(Quantity.describe(entry.total))"
            let limitAttribute: HTML = limited.map { " data-limit=\"\($0.key)\"" } ?? ""
            return "<td data-day=\"\(day)\" data-state=\"\(mark.rawValue)\"\(limitAttribute)><a class=\"cell\" href=\"\(path)?month=\(Self.monthText(first))&amp;day=\(day)#records\" aria-label=\"\(label)\">\(day.day)"
                + "<span class=\"mark\" aria-hidden=\"true\">\(mark.symbol)</span></a></td>"
        }
        let limited = habit.revision(on: last < today ? last : today).progress.atMostLimit != nil
        html += "<ul class=\"legend\" aria-label=\"\(words["Legend"])\">" + DayMark.allCases.map { mark -> HTML in
            // A limit's legend says within and over where a goal's says met and missed.
            let label = limited && mark == .met ? words["within the limit"] : limited && mark == .missed ? words["over the limit"] : words.mark(mark)
            return "<li><span class=\"key\" data-state=\"\(mark.rawValue)\" aria-hidden=\"true\">\(mark.symbol)</span>\(label)</li>"
        }.joined() + "</ul>"
        return html
    }

    private func year() -> HTML {
        guard let panel = dashboard, case .success(let content) = panel.content else { return "" }
        let range = LocalDayRange(today.adding(days: -364).startOfWeek(weekStart), today)
        var chart = YearChartSVG(timeline: content.timeline, scores: content.scores.map { ($0.day, $0.score) }, range: range, words: words)
        chart.weekStart = weekStart
        return "<h3>\(words["Last year"]) · \(words["Score"])</h3>\(chart.render())"
    }

    /// The shown day's sheet: each record with its own remove button, the day skipped or taken
    /// back, and a record with a note (the calendar's days link here).
    private func recordsOfDay() -> HTML {
        var html: HTML = "<h3 id=\"records\">\(words["Records"]) · \(day)</h3>"
        let unit = habit.unit.isEmpty ? "" : " " + habit.unit
        if records.isEmpty {
            html += "<p>\(words["Nothing recorded on this day."])</p>"
        } else {
            html += "<ul class=\"records\" data-day-records=\"\(day)\">" + records.map { record -> HTML in
                let note: HTML? = record.note.map { " <q data-field=\"note\">\($0)</q>" }
                return "<li data-record=\"\(record.id.uuidString)\"><span>\(Quantity.describe(record.amount))\(unit)\(note)</span>"
                    + "<form method=\"post\" action=\"\(path)/remove\" data-action=\"remove\">\(PageShell.csrf(csrf))" + FormField.input(RemoveRecordRequest.id, value: record.id.uuidString)
                    + dayBack + "<button type=\"submit\">\(words["Remove"])<span class=\"sr\"> \(Quantity.describe(record.amount))\(unit)</span></button></form></li>"
            }.joined() + "</ul>"
        }
        if day <= today, day >= habit.startedOn {
            let skipped: Bool
            if case .days(let timeline, _)? = calendar.sheets.first { skipped = timeline.calendarEntry(on: day)?.state == .skipped } else { skipped = false }
            let (action, label) = skipped ? ("unskip", words["Skipped · take back"]) : ("skip", words["Skip"])
            html += "<form method=\"post\" action=\"\(path)/\(action)\" data-action=\"\(action)\" data-day=\"\(day)\">\(PageShell.csrf(csrf))"
                + FormField.input(SkipRequest.on, value: day.iso) + dayBack + "<button type=\"submit\">\(label)<span class=\"sr\"> \(day)</span></button></form>"
        }
        return html + noteForm()
    }

    /// Where a change made to the shown day returns: that day, in its month.
    private var dayBack: HTML {
        "<input type=\"hidden\" name=\"back\" value=\"\(path)?month=\(Self.monthText(month))&amp;day=\(day)#records\">"
    }

    /// A record of the shown day with a note written beside it.
    private func noteForm() -> HTML {
        guard day <= today, day >= habit.startedOn else { return "" }
        return "<form method=\"post\" action=\"\(path)/record\" data-form=\"record-note\">\(PageShell.csrf(csrf))"
            + FormField.input(RecordRequest.on, value: day.iso) + dayBack
            + "<label for=\"note-amount\">\(words["Amount"])</label>" + FormField.input(RecordRequest.amount, id: "note-amount", value: "1", attributes: [("min", "0")])
            + "<label for=\"note-text\">\(words["Note"])</label>" + FormField.input(RecordRequest.note, id: "note-text", value: nil, attributes: [("autocomplete", "off")])
            + "<p><button type=\"submit\">\(words["Record with a note"])</button></p></form>"
    }

    /// The rule revisions, newest first (each by its first day and its policies' names, the
    /// scripts' hashes in a details line; a taken-back one says so), the button that takes the
    /// latest change back, and the form that brings an earlier revision back.
    private func revisions() -> HTML {
        var html: HTML = "<h3>\(words["Rule revisions"])</h3><ol id=\"revisions\" reversed>"
        for revision in habit.revisions.reversed() {
            let roles = PolicyRole.habitRoles.map { role -> String in
                let choice = revision.choice(for: role)
                return "\(words[role.rawValue]) \(words.policy(choice.name))"
            }.joined(separator: ", ")
            let hashes = PolicyRole.habitRoles.map { "\(words[$0.rawValue]) \(revision.choice(for: $0).label)" }.joined(separator: ", ")
            var notes: HTML = ""
            if let takesBack = revision.takesBack {
                notes += " <span data-takes-back=\"\(takesBack)\">(\(words["takes back revision {n}"].replacingOccurrences(of: "{n}", with: String(takesBack))))</span>"
            }
            var state: HTML = ""
            if let taker = habit.takenBack(revision.number) {
                state = " data-taken-back-by=\"\(taker)\""
                notes += " <span>(\(words["taken back by revision {n}"].replacingOccurrences(of: "{n}", with: String(taker))))</span>"
            }
            html += "<li data-revision=\"\(revision.number)\"\(state)>\(revision.effectiveFrom): \(words["Goal a day"]) \(Quantity.describe(revision.goal)); \(roles)\(notes)"
                + "<details><summary>\(words["Scripts"])</summary><code>\(hashes)</code></details></li>"
        }
        html += "</ol>"
        guard habit.revisions.count > 1 else { return html }
        html += "<form method=\"post\" action=\"\(path)/rollback\" data-form=\"rollback\">\(PageShell.csrf(csrf))"
            + "<button type=\"submit\" data-action=\"take-back\">\(words["Take back the latest change"])</button></form>"
        let options = habit.revisions.dropLast().reversed().map { "<option>\($0.number)</option>" as HTML }.joined()
        html += "<details><summary>\(words["Bring back an earlier revision"])</summary>"
            + "<form method=\"post\" action=\"\(path)/rollback\" data-form=\"rollback-to\">\(PageShell.csrf(csrf))<label for=\"rollback-to\">\(words["Bring back revision"])</label>"
            + "<select id=\"rollback-to\" name=\"\(RollbackRequest.to.key)\">\(options)</select>"
            + "<label for=\"rollback-from\">\(words["Rules from"])</label>" + FormField.input(RollbackRequest.from, id: "rollback-from", value: nil) + " "
            + "<button type=\"submit\">\(words["Roll back"])</button></form></details>"
        return html
    }

    private func editForms() -> HTML {
        let rules = habit.latest
        let csrfField = PageShell.csrf(csrf)
        var html: HTML = "<details><summary>\(words["Edit"])</summary><form method=\"post\" action=\"\(path)/edit\" data-form=\"edit-habit\">\(csrfField)"
        html += "<label for=\"edit-name\">\(words["Name"])</label>"
            + FormField.input(EditHabitRequest.name, id: "edit-name", value: habit.name, attributes: [("required", ""), ("maxlength", "200")])
        html += "<label for=\"edit-goal\">\(words["Goal a day"])</label>" + FormField.input(HabitRules.goal, id: "edit-goal", value: Quantity.describe(rules.goal), attributes: [("min", "0")])
        html += "<label for=\"edit-unit\">\(words["Unit"])</label>" + FormField.input(HabitRules.unit, id: "edit-unit", value: habit.unit)
        for (role, label) in [(PolicyRole.schedule, "Schedule"), (.progress, "Progress"), (.streak, "Streak rule")] {
            html += ParameterFields(role: role, listings: policies[role] ?? [], words: words).render(current: rules.choice(for: role), label: words[label])
            if role == .schedule { html += ParameterFields.scheduleText(id: "edit-schedule-text", words: words) }
        }
        html += ParameterFields.reminders(id: "edit-remind", current: rules.reminders, words: words)
        html += colorField()
        html += "<label for=\"edit-step\">\(words["Step for +"])</label>"
            + FormField.input(HabitDisplay.step, id: "edit-step", value: Quantity.describe(habit.stepAmount), attributes: [("min", "0.001")])
        html += "<label for=\"edit-question\">\(words["Question"])</label>"
            + FormField.input(HabitDisplay.question, id: "edit-question", value: habit.question ?? "", attributes: [("maxlength", "\(Habit.textLimit)"), ("autocomplete", "off")])
        html += "<label for=\"edit-description\">\(words["Description"])</label>"
            + FormField.input(HabitDisplay.description, id: "edit-description", value: habit.details ?? "", attributes: [("maxlength", "\(Habit.textLimit)"), ("autocomplete", "off")])
        html += "<label for=\"edit-from\">\(words["Rules from"])</label>" + FormField.input(RulesFromRequest.from, id: "edit-from", value: max(today, habit.startedOn).iso)
        html += "<p><button class=\"primary\" type=\"submit\">\(words["Save"])</button></p></form>"
        if habit.archivedOn == nil {
            html += "<form method=\"post\" action=\"\(path)/archive\" data-action=\"archive\">\(csrfField)<label for=\"archive-on\">\(words["Archive on"])</label>"
                + FormField.input(ArchiveRequest.on, id: "archive-on", value: today.iso) + " <button type=\"submit\">\(words["Archive"])</button></form>"
        } else {
            html += "<form method=\"post\" action=\"\(path)/unarchive\" data-action=\"unarchive\">\(csrfField)<button type=\"submit\">\(words["Unarchive"])</button></form>"
        }
        return html + "</details>" + orderForms()
    }

    /// The colour tags to choose from, the habit's selected; none first.
    private func colorField() -> HTML {
        let options = [("none", words["No colour"])] + HabitColor.allCases.map { ($0.rawValue, words[$0.rawValue]) }
        return "<label for=\"edit-color\">\(words["Colour"])</label><select id=\"edit-color\" name=\"\(HabitDisplay.colorTag.key)\">"
            + options.map { value, label -> HTML in
                let selected: HTML = value == (habit.colorTag?.rawValue ?? "none") ? " selected" : ""
                return "<option value=\"\(value)\"\(selected)>\(label)</option>"
            }.joined() + "</select>"
    }

    /// Up and down in the list, where there is room to move (the order of today's cards).
    private func orderForms() -> HTML {
        guard place.count > 1 else { return "" }
        var html: HTML = "<div class=\"order\" id=\"order\"><span>\(words["Place in the list"]): \(place.index + 1) / \(place.count)</span>"
        // The places counted from 1: up is the place above (index), down the one below (index + 2).
        var moves: [(label: String, target: Int, move: String)] = []
        if place.index > 0 { moves.append((words["Move up"], place.index, "up")) }
        if place.index + 1 < place.count { moves.append((words["Move down"], place.index + 2, "down")) }
        for (label, target, move) in moves {
            html += "<form method=\"post\" action=\"\(path)/move\" data-action=\"move-\(move)\">\(PageShell.csrf(csrf))"
                + FormField.input(EditHabitRequest.position, value: String(target)) + "<button type=\"submit\">\(label)<span class=\"sr\"> \(habit.name)</span></button></form>"
        }
        return html + "</div>"
    }

    static func monthText(_ day: LocalDay) -> String {
        String(day.iso.prefix(7))
    }
}
