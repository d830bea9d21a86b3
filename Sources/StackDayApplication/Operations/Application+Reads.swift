import StackDay

/// The figures: today, statistics, calendars and the weekly report.
extension Application {
    /// `today`, `GET /v1/today`.
    public func todayView() throws -> TodayView {
        TodayView(day: today, results: try SummarizeHabits(context: context)(includeArchived: false), groups: try SummarizeGroups(context: context)())
    }

    /// `stats [NAME]`, `GET /v1/stats[?habit=NAME]`: every habit's figures, archived ones included.
    public func stats(_ request: StatsRequest = StatsRequest()) throws -> StatsView {
        StatsView(rows: try SummarizeHabits(context: context)(habitName: request.habit),
                  groups: request.habit == nil ? try SummarizeGroups(context: context)() : [])
    }

    /// `calendar NAME…`, `GET /v1/calendar/{name}`: the days `from` (default 26 weeks before `to`,
    /// or the start day) … `to` (default today) of each habit named.
    public func calendar(_ names: [String], _ request: CalendarRequest = CalendarRequest()) throws -> CalendarView {
        let to = request.to ?? today
        let from = request.from
        if let from { _ = try request.range(from, to) }
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

    /// `report week`, `GET /v1/report/week`: the week asked (default this one), in the language
    /// asked (default `language`).
    public func weekReport(_ request: WeekReportRequest = WeekReportRequest(), language: ReportLanguage = .english) throws -> WeekReportView {
        WeekReportView(report: try BuildWeeklyReport(context: context)(weekOf: request.weekOf), language: request.language ?? language)
    }
}

extension Application {
    /// The dashboard: today, the report of the week holding `weekOf` (default today) in
    /// `language`, and every habit's panel.
    public func dashboard(_ request: WeekReportRequest = WeekReportRequest(), language: ReportLanguage) throws -> DashboardView {
        let week = try weekReport(request, language: language)
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
    public func recordLog(_ name: String, _ request: RecordLogRequest = RecordLogRequest()) throws -> RecordLogView {
        let habit = try FindHabit(context: context)(named: name)
        let to = request.to ?? max(today, habit.startedOn)
        let days = try request.range(request.from ?? max(habit.startedOn, to.adding(days: 1 - ReadWindow.maximumSpan)), to)
        let all = RecordPageRequest(days: RecordLogRequest(from: days.first, to: days.last), limit: .max)
        return RecordLogView(habit: habit, days: days, records: try recordPage(name, all).records)
    }

    /// One page of a habit's records over the days asked (default: its start … today): the
    /// `limit` records after `cursor` in (day, recorded at, id) order, and the cursor of the
    /// next page (nil on the last).
    public func recordPage(_ name: String, _ request: RecordPageRequest) throws -> (records: [Completion], next: String?, habit: Habit, days: LocalDayRange) {
        let habit = try FindHabit(context: context)(named: name)
        let last = request.days.to ?? max(today, habit.startedOn)
        let (first, limit, cursor) = (request.days.from ?? min(habit.startedOn, last), request.limit, request.cursor)
        _ = try request.days.range(first, last)
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
