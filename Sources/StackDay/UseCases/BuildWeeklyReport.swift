/// The weekly report for the week containing a day (default today), in the user's weeks.
public struct BuildWeeklyReport {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Every habit whose tracking period overlaps the week, in creation order, then every group
    /// begun by the week's last day; streaks as of today.
    ///
    /// A habit whose policy fails gets a failed row; the others are computed as usual. Throws
    /// `UseCaseError.dayTooFarAhead` for a day past `ReadWindow.daysAhead`, and store errors.
    public func callAsFunction(weekOf day: LocalDay? = nil) throws -> WeeklyReport {
        let today = context.today
        if let day { try ReadWindow.check(day, today: today) }
        let first = (day ?? today).startOfWeek(context.boundary.weekStart)
        let week = LocalDayRange(first, first.adding(days: 6))
        let loader = TimelineLoader(context: context)
        return try context.store.read { tx in
            let tracked = try tx.habits.all().filter { !LocalDayRange($0.startedOn, $0.archivedOn ?? week.last).clamped(to: week).isEmpty }
            let rows = try loader.evaluateEach(tracked, today: today, through: week.last, in: tx) { _, evaluated in
                WeeklyReportBuilder.line(for: evaluated.timeline, streak: try evaluated.streak(), firstDay: first)
            }
            let groups = try SummarizeGroups(context: context).summaries(of: try tx.groups.all().filter { $0.startedOn <= week.last }, in: tx).map { result in
                result.map { WeeklyGroupLine($0, firstDay: first) }.mapError { WeeklyGroupFailure(name: $0.group.name, message: $0.message) }
            }
            return WeeklyReport(firstDay: first, rows: rows, groups: groups)
        }
    }
}
