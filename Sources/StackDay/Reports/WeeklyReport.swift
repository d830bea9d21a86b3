/// A Monday-to-Sunday summary of every habit, in creation order.
public struct WeeklyReport: Hashable, Sendable {
    public let monday: LocalDay
    /// One row per habit tracked during the week: its line, or why its policies failed.
    public let rows: [Result<WeeklyReportLine, HabitFailure>]

    public init(monday: LocalDay, rows: [Result<WeeklyReportLine, HabitFailure>]) {
        self.monday = monday
        self.rows = rows
    }

    public init(monday: LocalDay, lines: [WeeklyReportLine]) {
        self.init(monday: monday, rows: lines.map { .success($0) })
    }

    public var days: [LocalDay] { (0..<7).map { monday.adding(days: $0) } }
    public var sunday: LocalDay { monday.adding(days: 6) }

    /// The lines of the habits whose policies answered, in row order.
    public var lines: [WeeklyReportLine] { rows.compactMap { try? $0.get() } }

    /// The habits whose policies failed, in row order.
    public var failures: [HabitFailure] { rows.failures() }

    /// The habit with the best share of due days met (ties: more days met, then the first listed);
    /// nil when no habit met a day. Failed habits take no part.
    public var mostConsistent: WeeklyReportLine? {
        var best: WeeklyReportLine?
        for line in lines where line.metDays > 0 {
            guard let current = best else { best = line; continue }
            if line.rate > current.rate || (line.rate == current.rate && line.metDays > current.metDays) {
                best = line
            }
        }
        return best
    }
}
