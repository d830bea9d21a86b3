/// A week's summary of every habit, in list order: Monday to Sunday, or Sunday to Saturday for
/// a user whose weeks start on Sunday.
public struct WeeklyReport: Hashable, Sendable {
    /// The week's first day.
    public let firstDay: LocalDay
    /// One row per habit tracked during the week: its line, or why its policies failed.
    public let rows: [Result<WeeklyReportLine, HabitFailure>]
    /// One line per group, after the habits: its line, or why its rules failed (by message).
    public let groups: [Result<WeeklyGroupLine, WeeklyGroupFailure>]

    public init(firstDay: LocalDay, rows: [Result<WeeklyReportLine, HabitFailure>], groups: [Result<WeeklyGroupLine, WeeklyGroupFailure>] = []) {
        self.firstDay = firstDay
        self.rows = rows
        self.groups = groups
    }

    public init(firstDay: LocalDay, lines: [WeeklyReportLine]) {
        self.init(firstDay: firstDay, rows: lines.map { .success($0) })
    }

    public var days: [LocalDay] { (0..<7).map { firstDay.adding(days: $0) } }
    /// The week's last day.
    public var lastDay: LocalDay { firstDay.adding(days: 6) }

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
