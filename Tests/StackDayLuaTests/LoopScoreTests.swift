import Foundation
import Testing
import StackDay
import StackDayLua

/// The score against Loop Habit Tracker's published formula (uhabits-core `Score.compute`,
/// `ScoreList.recompute`), computed here step by step from a history written as one character a
/// day: `y` done, `n` not, `s` skipped, a digit an amount.
@Suite("Loop's score")
struct LoopScoreTests {
    /// Loop's score after the last day of `history` for a boolean habit of `numerator` per
    /// `denominator` days, or a numerical at-most habit of `limit` (daily).
    static func loop(_ history: String, numerator: Int, denominator: Int, limit: Double? = nil) -> Double {
        let frequency = Double(numerator) / Double(denominator)
        let multiplier = pow(0.5, frequency.squareRoot() / 13)
        let days = Array(history)
        var (top, window) = (Double(numerator), denominator)
        if limit == nil, frequency < 1 { (top, window) = (top * 2, window * 2) }
        var score = limit == nil ? 0.0 : 1.0
        for index in days.indices {
            let start = max(0, index - window + 1)
            if days[index] == "s" { continue }
            let value: Double
            if let limit {
                let total = days[start...index].reduce(0.0) { $0 + (Double(String($1)) ?? 0) }
                value = min(1, max(0, 1 - (total - limit) / limit))
            } else {
                value = min(1, Double(days[start...index].filter { $0 == "y" }.count) / top)
            }
            score = score * multiplier + value * (1 - multiplier)
        }
        return score
    }

    /// Ours, for the same history: the habit starts on the first day and today is the day after the last.
    static func ours(_ history: String, schedule: PolicyChoice, progress: PolicyChoice = .goal) throws -> Double {
        let fixture = try PolicyFixture()
        let start = try LocalDay(iso: "2026-01-05")
        let habit = try Habit(name: "h", startedOn: start, createdAt: Date(timeIntervalSince1970: 0), schedule: schedule, progress: progress)
        let policies = try fixture.library.policies(for: habit, revision: habit.latest, scripts: InMemoryPolicyScriptRepository())
        var completions: [Completion] = []
        var skips: [Skip] = []
        for (offset, mark) in history.enumerated() {
            let day = start.adding(days: offset)
            if mark == "y" { completions.append(try Completion(habitID: habit.id, completedOn: day, recordedAt: Date(timeIntervalSince1970: 0))) }
            if let amount = Double(String(mark)), amount > 0 {
                completions.append(try Completion(habitID: habit.id, completedOn: day, recordedAt: Date(timeIntervalSince1970: 0), amount: amount))
            }
            if mark == "s" { skips.append(Skip(habitID: habit.id, day: day, recordedAt: Date(timeIntervalSince1970: 0))) }
        }
        let timeline = try HabitTimelineBuilder(policies: policies).build(habit: habit, completions: completions, skips: skips,
                                                                           today: start.adding(days: history.count))
        return try HabitStatisticsCalculator(streakCalculator: HabitStreakCalculator(policy: policies.streak)).calculate(timeline).score
    }

    static let threeAWeek = PolicyChoice(name: "times-per-week", parameters: ["times": .number(3)])

    @Test("daily, 3 a week (perfect, uneven, lapsed), an at-most limit and skips: within 0.1 % of Loop's", arguments: [
        ("daily, 60 days done", String(repeating: "y", count: 60), 1, 7, false),
        ("daily with misses and skips", String(repeating: "yynys", count: 12), 1, 1, false),
        ("3 a week, 13 perfect weeks", String(repeating: "yynynnn", count: 13), 3, 7, true),
        ("3 a week, uneven weeks", String(repeating: "nnnnyyy" + "yyynnnn", count: 6), 3, 7, true),
        ("3 a week, lapsed after 8 weeks", String(repeating: "ynynynn", count: 8) + String(repeating: "n", count: 28), 3, 7, true),
        ("3 a week with skipped days", String(repeating: "ysnynsn", count: 10), 3, 7, true),
        ("3 a week, 13 perfect weeks, the 14th open", String(repeating: "yynynnn", count: 13) + "y", 3, 7, true),
        ("3 a week, 13 perfect weeks, 4 days of the 14th with nothing", String(repeating: "ynynynn", count: 13) + "nnn", 3, 7, true),
    ])
    func boolean(_ name: String, _ history: String, _ numerator: Int, _ denominator: Int, _ quota: Bool) throws {
        // Today (the day after the history) is open: Loop steps a quota's today as a day with
        // nothing yet, as ours does; a day-by-day habit's open today is not judged before it ends.
        let expected = quota ? Self.loop(history + "n", numerator: numerator, denominator: denominator) : Self.loop(history, numerator: 1, denominator: 1)
        let ours = try Self.ours(history, schedule: quota ? Self.threeAWeek : .daily)
        #expect(abs(ours - expected) <= 0.001 * max(expected, 0.01), "\(name): ours \(ours), Loop's \(expected)")
    }

    @Test("at most 2 a day: over the limit costs in proportion, as Loop's at-most habits do")
    func atMost() throws {
        let history = "1203102413201020"
        // Today, with nothing recorded yet, is within the limit: a step for Loop and for us.
        let expected = Self.loop(history + "0", numerator: 1, denominator: 1, limit: 2)
        let ours = try Self.ours(history, schedule: .daily, progress: PolicyChoice(name: "at-most", parameters: ["limit": .number(2)]))
        #expect(abs(ours - expected) <= 0.001 * expected, "ours \(ours), Loop's \(expected)")
    }

    @Test("13 perfect weeks of 3 a week score like 13 weeks of a daily habit done every day, not like 13 days")
    func quotaIsNotDays() throws {
        let weeks = try Self.ours(String(repeating: "yynynnn", count: 13), schedule: Self.threeAWeek)
        let days = try Self.ours(String(repeating: "y", count: 13), schedule: .daily)
        #expect(weeks > 0.9 && days < 0.55, "13 weeks: \(weeks), 13 days: \(days)")
    }
}
