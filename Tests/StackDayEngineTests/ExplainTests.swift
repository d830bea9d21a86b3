import Foundation
import Testing
import StackDay
import StackDayLua
import StackDaySQLite
import StackDayTestSupport

/// `explain` walks the fold the figures come from: for random histories, rules and revisions, its
/// last step's streak is `stats`'s, with and without the cache, whether the figures came from a
/// rule's range form or its per-day function.
@Suite("explain: the steps end where the figures are")
struct ExplainTests {
    let zone = DayBoundary(timeZone: TimeZone(secondsFromGMT: 0)!)

    func context(_ store: any HabitStore, _ library: PolicyLibrary, today: LocalDay, cached: Bool) -> HabitContext {
        HabitContext(store: store, clock: FixedClock(today.firstInstant(in: zone.timeZone).addingTimeInterval(20 * 3600)),
                     boundary: zone, policies: library, usesEvaluationCache: cached)
    }

    @Test("random histories, built-in rules and revisions: the last step's streak is stats', cached or not; each step starts where the one before ended",
          arguments: [3, 17, 42, 99] as [UInt64])
    func property(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let folder = try TemporaryFolder()
        let store = try SQLiteHabitStore(path: folder.path("explain.sqlite"))
        let library = try PolicyLibrary(searchPath: [])
        let start = try LocalDay(iso: "2026-03-01")
        let today = start.adding(days: 150)
        let setup = context(store, library, today: today, cached: true)
        let schedules = EvaluationCacheTests.schedules, streaks = EvaluationCacheTests.streaks
        for index in 0..<6 {
            let name = "habit \(index)"
            let goal = Double(Int.random(in: 1...3, using: &random))
            let schedule = schedules[Int.random(in: 0..<schedules.count, using: &random)]
            try CreateHabit(context: setup)(
                name: name, startedOn: start.adding(days: Int.random(in: 0...20, using: &random)), goal: goal,
                schedule: try PolicyChoice(name: schedule.0, parametersJSON: schedule.1),
                streak: try PolicyChoice(name: streaks[index % streaks.count].0, parametersJSON: streaks[index % streaks.count].1)
            )
            for offset in 0...150 where Int.random(in: 0..<10, using: &random) < 6 {
                let day = start.adding(days: offset)
                _ = try? RecordCompletion(context: setup)(habitName: name, amount: Double(Int.random(in: 1...3, using: &random)), on: day)
            }
            if Int.random(in: 0..<3, using: &random) == 0 {
                _ = try? SkipDays(context: setup)(habitName: name, days: LocalDayRange(start.adding(days: 60), start.adding(days: 62)))
            }
            if Int.random(in: 0..<2, using: &random) == 0 {
                let other = streaks[(index + 1) % streaks.count]
                let schedule = schedules[Int.random(in: 0..<schedules.count, using: &random)]
                try EditHabit(context: setup)(habitName: name, changes: HabitChanges(
                    schedule: try PolicyChoice(name: schedule.0, parametersJSON: schedule.1),
                    streak: try PolicyChoice(name: other.0, parametersJSON: other.1),
                    rulesFrom: .day(start.adding(days: Int.random(in: 30...120, using: &random)))))
            }
        }
        for cached in [true, false] {
            let reading = context(store, library, today: today, cached: cached)
            for result in try SummarizeHabits(context: reading)() {
                let summary = try result.get()
                let explanation = try ExplainHabit(context: reading)(.id(summary.habit.id), from: start, to: today)
                let label = "seed \(seed), \(summary.habit.name) (\(summary.habit.revisions.map { "\($0.schedule.name)/\($0.streak.name) from \($0.effectiveFrom)" })), cached \(cached)"
                #expect(explanation.streak == summary.statistics.streak, "\(label)")
                #expect(explanation.steps.last.map { $0.step.streak } ?? HabitStreak(current: 0, longest: 0) == summary.statistics.streak, "\(label)")
                for (earlier, later) in zip(explanation.steps, explanation.steps.dropFirst()) where earlier.revision.number == later.revision.number {
                    #expect(earlier.step.after == later.step.before, "\(label): \(later.days.first)")
                }
                #expect(explanation.steps.allSatisfy { $0.days.last <= today && $0.days.first >= summary.habit.startedOn }, "\(label)")
            }
        }
    }
}
