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
        for segment in timeline.segments {
            for entry in timeline.outcomes(of: segment) {
                switch entry.state {
                case .completed: completed += 1
                case .missed: missed += 1
                default: break
                }
            }
        }
        let score = Self.foldScore(timeline) { _, _ in }
        let eligible = completed + missed
        return HabitStatistics(
            completedDays: completed,
            eligibleDays: eligible,
            completionRate: eligible == 0 ? 0 : Double(completed) / Double(eligible),
            streak: streak,
            score: score
        )
    }

    /// The score after each outcome day (each period's last day for a quota habit), oldest first:
    /// what a score chart draws.
    public static func scores(_ timeline: HabitTimeline) -> [(day: LocalDay, score: Double)] {
        var series: [(day: LocalDay, score: Double)] = []
        _ = Self.foldScore(timeline) { day, score in series.append((day, score)) }
        return series
    }

    /// Loop Habit Tracker's score over the whole timeline: with m = 0.5^(√f / 13), f the share of
    /// days a segment's schedule asks for (1 for periods), each due day moves the score to
    /// `score · m + progress · (1 − m)`; skipped, not-due and still-pending days carry it.
    /// `each` sees the score after every outcome.
    static func foldScore(_ timeline: HabitTimeline, each: (LocalDay, Double) -> Void) -> Double {
        var score = 0.0
        for segment in timeline.segments {
            let outcomes = timeline.outcomes(of: segment)
            let due = outcomes.reduce(0) { $0 + ($1.isDue ? 1 : 0) }
            // Periods count one each; days count by the share of days the schedule asks for.
            let frequency = segment.quota != nil || outcomes.isEmpty ? 1 : max(Double(due) / Double(outcomes.count), 1.0 / 365)
            let multiplier = pow(0.5, frequency.squareRoot() / 13)
            for entry in outcomes {
                switch entry.state {
                case .completed, .missed:
                    score = score * multiplier + entry.progress * (1 - multiplier)
                case .pending, .notDue, .skipped, .upcoming:
                    break
                }
                each(entry.day, score)
            }
        }
        return score
    }
}
