/// One group's line in the weekly report: its days of the week as its rule judged them.
public struct WeeklyGroupLine: Hashable, Sendable {
    public let name: String
    /// The week's days from its first.
    public let marks: [WeekMark]
    /// Days of the week the group was done.
    public let metDays: Int
    /// Days of the week some member was due, not all of them skipped.
    public let dueDays: Int
    /// The streak as of today.
    public let streak: HabitStreak

    public init(name: String, marks: [WeekMark], metDays: Int, dueDays: Int, streak: HabitStreak) {
        self.name = name
        self.marks = marks
        self.metDays = metDays
        self.dueDays = dueDays
        self.streak = streak
    }

    /// The line of a judged group for the week from `first`: days after today are still to come
    /// (unmet when a member is due then, else rest, as the group's days after today are unknown).
    public init(_ summary: GroupSummary, firstDay first: LocalDay) {
        var marks: [WeekMark] = []
        var met = 0, due = 0
        let start = summary.days.first?.day
        for offset in 0..<7 {
            let day = first.adding(days: offset)
            guard let start, day >= start, start.days(to: day) < summary.days.count else {
                marks.append(.rest)
                continue
            }
            switch summary.days[start.days(to: day)].state {
            case .completed: marks.append(.met); met += 1; due += 1
            case .missed, .pending: marks.append(.unmet); due += 1
            default: marks.append(.rest)
            }
        }
        self.init(name: summary.group.name, marks: marks, metDays: met, dueDays: due, streak: summary.statistics.streak)
    }
}
