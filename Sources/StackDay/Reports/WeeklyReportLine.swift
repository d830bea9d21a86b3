/// One habit's line in the weekly report.
public struct WeeklyReportLine: Hashable, Sendable {
    /// The habit as it was read for the report.
    public let habit: Habit
    public var habitName: String { habit.name }
    public let unit: String
    /// Monday through Sunday.
    public let marks: [WeekMark]
    /// The week's total amount, in `unit`.
    public let total: Double
    /// Due days of the week that were reached.
    public let metDays: Int
    /// Due days of the week inside the tracking period and not skipped.
    public let dueDays: Int
    /// The streak as of today.
    public let streak: HabitStreak
    /// What the streak counts; under a quota, `metDays` of `dueDays` are the week's share of it.
    public let countsIn: CountUnit

    public init(
        habit: Habit, unit: String, marks: [WeekMark], total: Double, metDays: Int, dueDays: Int, streak: HabitStreak,
        countsIn: CountUnit = .days
    ) {
        self.habit = habit
        self.unit = unit
        self.marks = marks
        self.total = total
        self.metDays = metDays
        self.dueDays = dueDays
        self.streak = streak
        self.countsIn = countsIn
    }

    var rate: Double { dueDays == 0 ? 0 : Double(metDays) / Double(dueDays) }
}
