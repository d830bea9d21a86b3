import StackDay

/// The figures: today, statistics, calendars and the weekly report.
extension Application {
    /// `today`, `GET /v1/today`.
    public func todayView() throws -> TodayView {
        TodayView(day: today, results: try SummarizeHabits(context: context)(includeArchived: false))
    }

    /// `stats [NAME]`, `GET /v1/stats[?habit=NAME]`: every habit's figures, archived ones included.
    public func stats(_ fields: RequestFields) throws -> StatsView {
        try fields.check(allowed: ["habit"])
        return StatsView(rows: try SummarizeHabits(context: context)(habitName: try fields.string("habit")))
    }

    /// `calendar NAME…`, `GET /v1/calendar/{name}`: the days `from` (default 26 weeks before `to`,
    /// or the start day) … `to` (default today) of each habit named.
    public func calendar(_ names: [String], _ fields: RequestFields) throws -> CalendarView {
        try fields.check(allowed: ["from", "to"])
        let to = try fields.day("to") ?? today
        let from = try fields.day("from")
        if let from, from > to { throw RequestError("\(fields.label("from")) \(from) is after \(fields.label("to")) \(to)") }
        let results = try LoadTimeline(context: context)(names.map(HabitReference.name), through: to)
        return CalendarView(sheets: try results.map { result in
            switch result {
            case .success(let timeline): .days(timeline, try timeline.calendarDays(from: from, through: to))
            case .failure(let failure): .failed(failure)
            }
        })
    }

    /// `export --format ics`, `GET /v1/feeds/{token}.ics`: every active habit's schedule through a
    /// year ahead as an iCalendar feed named `title`. A habit whose policy fails is left out.
    public func calendarFeed(title: String) throws -> CalendarFeedView {
        let through = today.adding(days: ReadWindow.daysAhead)
        let timelines = try LoadTimeline(context: context).all(through: through).compactMap { try? $0.get() }
        return CalendarFeedView(timelines: timelines, today: today, title: title)
    }

    /// `report week`, `GET /v1/report/week`: the week holding `weekOf` (default today), in
    /// `lang` (`en` or `ko`; default `language`).
    public func weekReport(_ fields: RequestFields, language: ReportLanguage = .english) throws -> WeekReportView {
        try fields.check(allowed: ["weekOf", "lang"])
        var chosen = language
        if let text = try fields.string("lang") {
            switch text {
            case "en": chosen = .english
            case "ko": chosen = .korean
            default: throw fields.invalid("lang", "'\(text)' (use en or ko)")
            }
        }
        return WeekReportView(report: try BuildWeeklyReport(context: context)(weekOf: try fields.day("weekOf")), language: chosen)
    }
}

extension Application {
    /// The dashboard: today, the report of the week holding `weekOf` (default today) in
    /// `language`, and every habit's panel.
    public func dashboard(_ fields: RequestFields = RequestFields(), language: ReportLanguage) throws -> DashboardView {
        let week = try weekReport(fields, language: language)
        let panels = try LoadTimeline(context: context).all().map(Self.panel)
        return DashboardView(today: try todayView(), week: week, panels: panels)
    }

    /// One habit's panel: its days up to today and its score after each.
    public func panel(_ name: String) throws -> DashboardView.Panel {
        guard let result = try LoadTimeline(context: context)([.name(name)]).first else { throw UseCaseError.habitNotFound(name: name) }
        return Self.panel(result)
    }

    static func panel(_ result: Result<HabitTimeline, HabitFailure>) -> DashboardView.Panel {
        switch result {
        case .success(let timeline):
            let scores = HabitStatisticsCalculator.scores(timeline).map { DashboardView.Score(day: $0.day, score: $0.score) }
            return DashboardView.Panel(habit: timeline.habit, content: .success(DashboardView.Content(timeline: timeline, scores: scores)))
        case .failure(let failure):
            return DashboardView.Panel(habit: failure.habit, content: .failure(failure))
        }
    }
}

extension Application {
    /// A habit's records on the days `from` … `to` (default: today).
    public func records(_ name: String, from: LocalDay? = nil, to: LocalDay? = nil) throws -> (habit: Habit, records: [Completion]) {
        let last = to ?? from ?? today
        return try ListRecords(context: context)(.name(name), in: LocalDayRange(from ?? last, last))
    }
}

extension Application {
    /// `log NAME`: every record of a habit over `from` … `to` (default: its start, ten years back
    /// at most, … today), in (day, recorded at) order.
    public func recordLog(_ name: String, _ fields: RequestFields) throws -> RecordLogView {
        try fields.check(allowed: ["from", "to"])
        let habit = try FindHabit(context: context)(named: name)
        let to = try fields.day("to") ?? max(today, habit.startedOn)
        let from = try fields.day("from") ?? max(habit.startedOn, to.adding(days: 1 - ReadWindow.maximumSpan))
        guard from <= to else { throw RequestError("\(fields.label("from")) \(from) is after \(fields.label("to")) \(to)") }
        return RecordLogView(habit: habit, days: LocalDayRange(from, to), records: try recordPage(name, from: from, to: to, after: nil, limit: .max).records)
    }

    /// One page of a habit's records over `from` … `to` (default: its start … today): the
    /// `limit` records after `cursor` in (day, recorded at, id) order, and the cursor of the
    /// next page (nil on the last).
    public func recordPage(_ name: String, from: LocalDay?, to: LocalDay?, after cursor: String?, limit: Int)
        throws -> (records: [Completion], next: String?, habit: Habit, days: LocalDayRange) {
        let habit = try FindHabit(context: context)(named: name)
        let last = to ?? max(today, habit.startedOn)
        let first = from ?? min(habit.startedOn, last)
        guard first <= last else { throw RequestError("from \(first) is after to \(last)") }
        let all = try ListRecords(context: context)(.id(habit.id), in: LocalDayRange(first, last)).records
            .sorted { ($0.completedOn, $0.recordedAt, $0.id.uuidString) < ($1.completedOn, $1.recordedAt, $1.id.uuidString) }
        var start = all.startIndex
        if let cursor {
            guard let position = RecordCursor(cursor) else { throw RequestError("the cursor is not one this server gave") }
            start = all.firstIndex { ($0.completedOn, $0.recordedAt, $0.id.uuidString) > (position.day, position.recordedAt, position.id) } ?? all.endIndex
        }
        let page = Array(all[start...].prefix(limit))
        let more = start + page.count < all.endIndex
        return (page, more ? page.last.map { RecordCursor(day: $0.completedOn, recordedAt: $0.recordedAt, id: $0.id.uuidString).text } : nil,
                habit, LocalDayRange(first, last))
    }
}
