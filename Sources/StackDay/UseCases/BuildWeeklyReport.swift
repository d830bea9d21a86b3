/// The weekly report for the week containing a day (default today).
public struct BuildWeeklyReport {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Every habit whose tracking period overlaps the week, in creation order; streaks as of today.
    public func callAsFunction(weekOf day: LocalDay? = nil) throws -> WeeklyReport {
        let today = context.today
        let monday = (day ?? today).startOfWeek
        let week = LocalDayRange(monday, monday.adding(days: 6))
        let loader = TimelineLoader(context: context)
        return try context.store.read {
            var lines: [WeeklyReportLine] = []
            for habit in try context.store.habits.all() {
                let tracked = LocalDayRange(habit.startedOn, habit.archivedOn ?? week.last)
                guard !tracked.clamped(to: week).isEmpty else { continue }
                let (timeline, policies) = try loader.timeline(for: habit, today: today, through: week.last)
                let streak = try HabitStreakCalculator(policy: policies.streak).calculate(timeline)
                lines.append(WeeklyReportBuilder.line(for: timeline, streak: streak, monday: monday))
            }
            return WeeklyReport(monday: monday, lines: lines)
        }
    }
}
