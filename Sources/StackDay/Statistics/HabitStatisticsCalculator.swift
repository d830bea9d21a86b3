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

    /// Loop Habit Tracker's score (uhabits-core `Score.compute` and `ScoreList.recompute`) over the
    /// whole timeline. Each step moves it to `score · m + value · (1 − m)` with m = 0.5^(√f / 13),
    /// f the habit's frequency:
    /// - a day-by-day schedule steps on its due days, f the share of days it asks for, the value
    ///   the day's progress; an `at-most` limit L starts at 1 and its value is the day's total
    ///   against the limit, 1 − (total − L) / L clamped to 0…1 (nothing over a limit of 0);
    /// - a quota ("3 a week") steps every day, f = times / days (a week 7 days, a month 30, a
    ///   rolling window its own), the value the share of the quota met by the completed days in
    ///   the window ending that day, numerator and window doubled when f < 1 as Loop does to
    ///   smooth uneven weeks;
    /// and a skipped day, a day not yet judged (but a quota's today) and a day not due carry the
    /// score as it is.
    /// `each` sees the score after every step.
    static func foldScore(_ timeline: HabitTimeline, each: (LocalDay, Double) -> Void) -> Double {
        var score = timeline.segments.first?.revision.progress.atMostLimit != nil ? 1.0 : 0.0
        // Completed days so far, for a quota's rolling count: days since the timeline's first.
        var completedBefore: [Int] = [0]
        let elapsedEnd = min(timeline.today, timeline.period.isEmpty ? timeline.today : timeline.period.last)
        for segment in timeline.segments {
            if let quota = segment.quota {
                let days: Int
                switch quota.period {
                case .week: days = 7
                case .month: days = 30
                case .rolling(let window): days = window
                }
                let frequency = Double(quota.times) / Double(days)
                let doubled = frequency < 1 ? 2 : 1
                let (numerator, window) = (Double(quota.times * doubled), days * doubled)
                let multiplier = pow(0.5, frequency.squareRoot() / 13)
                var day = segment.days.first
                while day <= min(segment.days.last, elapsedEnd), let entry = timeline.entry(on: day) {
                    let done = entry.state == .completed || (entry.total > 0 && entry.progress >= 1)
                    completedBefore.append(completedBefore[completedBefore.count - 1] + (done ? 1 : 0))
                    let index = completedBefore.count - 1
                    let inWindow = completedBefore[index] - completedBefore[max(0, index - window)]
                    // Every day steps, today too while it is open, as Loop's recompute does: the
                    // window's share of the quota is what the open period has met so far.
                    if entry.state != .skipped {
                        score = score * multiplier + min(1, Double(inWindow) / numerator) * (1 - multiplier)
                    }
                    each(day, score)
                    day = day.adding(days: 1)
                }
                continue
            }
            let outcomes = timeline.outcomes(of: segment)
            for entry in outcomes {
                completedBefore.append(completedBefore[completedBefore.count - 1] + (entry.state == .completed ? 1 : 0))
            }
            score = foldDaily(outcomes, from: score, limit: segment.revision.progress.atMostLimit, each: each)
        }
        return score
    }

    /// Loop's steps over a day-by-day run of outcomes (a habit's segment, a group's days), from
    /// `score`: f = due days / days, and a judged day moves the score toward its value.
    static func foldDaily(_ outcomes: ArraySlice<HabitEntry>, from start: Double, limit: Double?, each: (LocalDay, Double) -> Void) -> Double {
        var score = start
        let due = outcomes.reduce(0) { $0 + ($1.isDue ? 1 : 0) }
        let frequency = outcomes.isEmpty ? 1 : max(Double(due) / Double(outcomes.count), 1.0 / 365)
        let multiplier = pow(0.5, frequency.squareRoot() / 13)
        for entry in outcomes {
            switch entry.state {
            case .completed, .missed:
                score = score * multiplier + Self.value(entry, limit: limit) * (1 - multiplier)
            case .pending, .notDue, .skipped, .upcoming:
                break
            }
            each(entry.day, score)
        }
        return score
    }

    /// A day's value for the score: its progress, or for a limit how far the total stayed under it.
    static func value(_ entry: HabitEntry, limit: Double?) -> Double {
        guard let limit else { return entry.progress }
        guard limit > 0 else { return entry.total > 0 ? 0 : 1 }
        return min(1, max(0, 1 - (entry.total - limit) / limit))
    }
}
