/// A Monday-to-Sunday summary of every habit, in creation order.
public struct WeeklyReport: Hashable, Sendable {
    public let monday: LocalDay
    public let lines: [WeeklyReportLine]

    public init(monday: LocalDay, lines: [WeeklyReportLine]) {
        self.monday = monday
        self.lines = lines
    }

    public var days: [LocalDay] { (0..<7).map { monday.adding(days: $0) } }
    public var sunday: LocalDay { monday.adding(days: 6) }

    /// The habit with the best share of due days met (ties: more days met, then the first listed);
    /// nil when no habit met a day.
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
