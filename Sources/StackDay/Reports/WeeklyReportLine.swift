/// One habit's line in the weekly report.
public struct WeeklyReportLine: Hashable, Sendable {
    public let habitName: String
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

    public init(habitName: String, unit: String, marks: [WeekMark], total: Double, metDays: Int, dueDays: Int, streak: HabitStreak) {
        self.habitName = habitName
        self.unit = unit
        self.marks = marks
        self.total = total
        self.metDays = metDays
        self.dueDays = dueDays
        self.streak = streak
    }

    var rate: Double { dueDays == 0 ? 0 : Double(metDays) / Double(dueDays) }
}
