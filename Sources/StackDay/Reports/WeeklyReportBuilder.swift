/// Builds a `WeeklyReport` line from a habit's timeline and streak.
public enum WeeklyReportBuilder {
    /// The line for the week starting on `first` (a Monday, or a Sunday); `timeline`
    /// must reach the week's last day or the archive day.
    public static func line(for timeline: HabitTimeline, streak: HabitStreak, firstDay first: LocalDay) -> WeeklyReportLine {
        var marks: [WeekMark] = []
        var due = 0
        var total = 0.0
        var met = 0
        for offset in 0..<7 {
            guard let entry = timeline.entry(on: first.adding(days: offset)) else {
                marks.append(.rest)
                continue
            }
            total += entry.total
            switch entry.state {
            case .completed:
                marks.append(.met); met += 1; due += 1
            case .missed, .pending:
                marks.append(.unmet); due += 1
            case .upcoming where entry.isDue:
                marks.append(.unmet); due += 1
            default:
                marks.append(.rest)
            }
        }
        let lastDay = timeline.period.isEmpty ? first : min(max(first.adding(days: 6), timeline.period.first), timeline.period.last)
        let quota = timeline.segment(on: lastDay)?.quota
        let week = LocalDayRange(first, first.adding(days: 6))
        let held = timeline.periods.filter { !$0.days.clamped(to: week).isEmpty }
        if quota?.period == .week, !held.isEmpty, held.allSatisfy({ week.contains($0.days.first) && week.contains($0.days.last) }) {
            // The report's week is the quota's (or its parts, where the habit began or a week's
            // first day moved): it needs what those periods need, as `today` says of them.
            due = held.reduce(0) { $0 + $1.times }
            met = held.reduce(0) { $0 + min($1.count, $1.times) }
        } else if let quota {
            // No single day is asked for: the week needs its share of the quota.
            let share: Double
            switch quota.period {
            case .week: share = Double(quota.times)
            case .month: share = Double(quota.times) * 7 / 30
            case .rolling(let days): share = Double(quota.times) * 7 / Double(days)
            }
            due = max(1, min(7, Int(share.rounded())))
            met = min(met, due)
        }
        return WeeklyReportLine(
            habit: timeline.habit,
            unit: timeline.habit.unit,
            marks: marks,
            total: Quantity.value(thousandths: Quantity.roundedThousandths(total)),
            metDays: met,
            dueDays: due,
            streak: streak,
            countsIn: CountUnit(quota)
        )
    }
}
