import Foundation

/// Computes `HabitStatistics` from a habit's timeline.
public struct HabitStatisticsCalculator {
    public let streakCalculator: HabitStreakCalculator

    public init(streakCalculator: HabitStreakCalculator) {
        self.streakCalculator = streakCalculator
    }

    public func calculate(_ timeline: HabitTimeline) throws -> HabitStatistics {
        try calculate(timeline, streak: try streakCalculator.calculate(timeline))
    }

    /// The statistics with the streak already known (from a cache, or computed once elsewhere).
    public func calculate(_ timeline: HabitTimeline, streak: HabitStreak) throws -> HabitStatistics {
        var completed = 0
        var missed = 0
        var score = 0.0
        for segment in timeline.segments {
            let outcomes = timeline.outcomes(of: segment)
            var due = 0
            for entry in outcomes {
                if entry.isDue { due += 1 }
                switch entry.state {
                case .completed: completed += 1
                case .missed: missed += 1
                default: break
                }
            }
            // Periods count one each; days count by the share of days the schedule asks for.
            let frequency = segment.quota != nil || outcomes.isEmpty ? 1 : max(Double(due) / Double(outcomes.count), 1.0 / 365)
            score = Self.score(outcomes, frequency: frequency, from: score)
        }
        let eligible = completed + missed
        return HabitStatistics(
            completedDays: completed,
            eligibleDays: eligible,
            completionRate: eligible == 0 ? 0 : Double(completed) / Double(eligible),
            streak: streak,
            score: score
        )
    }

    /// Loop Habit Tracker's score: with m = 0.5^(√f / 13), each due day moves the score to
    /// `score · m + progress · (1 − m)`; skipped, not-due and still-pending days carry it.
    static func score(_ entries: ArraySlice<HabitEntry>, frequency: Double, from start: Double = 0) -> Double {
        let multiplier = pow(0.5, frequency.squareRoot() / 13)
        var score = start
        for entry in entries {
            switch entry.state {
            case .completed, .missed:
                score = score * multiplier + entry.progress * (1 - multiplier)
            case .pending, .notDue, .skipped, .upcoming:
                break
            }
        }
        return score
    }
}
