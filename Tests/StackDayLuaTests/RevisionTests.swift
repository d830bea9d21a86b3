import Foundation
import Testing
import StackDay
@testable import StackDayLua

/// Rule revisions evaluated through Lua policies: quota periods end at a boundary, and the
/// streak carries current and longest into the next rule.
@Suite("rule revisions through Lua")
struct RevisionTests {
    let epoch = Date(timeIntervalSince1970: 0)

    /// A habit whose revision 1 runs `first` from `start` and revision 2 `second` from `boundary`.
    func habit(start: String, first: (PolicyChoice, PolicyChoice), boundary: String, second: (PolicyChoice, PolicyChoice)) throws -> Habit {
        let one = try HabitRevision(number: 1, effectiveFrom: day(start), goal: 1, schedule: first.0, progress: .goal, streak: first.1, createdAt: epoch)
        return try Habit(name: "gym", startedOn: day(start), createdAt: epoch, revisions: [one])
            .appending(try one.with(schedule: second.0, streak: second.1), from: day(boundary), at: epoch)
    }

    func evaluate(_ habit: Habit, days: [String], today: String) throws -> (HabitTimeline, HabitStatistics) {
        let fixture = try PolicyFixture()
        let policies = RevisionPolicies(habit: habit, resolver: fixture.library, scripts: InMemoryPolicyScriptRepository())
        let completions = try days.map { try Completion(habitID: habit.id, completedOn: day($0), recordedAt: epoch) }
        let timeline = try HabitTimelineBuilder(policies: policies).build(habit: habit, completions: completions, skips: [], today: day(today))
        let statistics = try HabitStatisticsCalculator(streakCalculator: HabitStreakCalculator(policies: policies)).calculate(timeline)
        return (timeline, statistics)
    }

    static let threeAWeek = PolicyChoice(name: "times-per-week", parameters: ["times": .number(3)])
    static let twiceAWeek = PolicyChoice(name: "times-per-week", parameters: ["times": .number(2)])

    @Test("a quota period that straddles a boundary ends there", arguments: [
        // Week of Mon 10-05 cut at Thu 10-08: 10-05 … 10-07 has 2 of 3 → missed; the new rule's week starts on the 8th.
        (["2026-10-05", "2026-10-06", "2026-10-08", "2026-10-09"], ["2026-10-05": EntryState.missed, "2026-10-08": .completed], HabitStreak(current: 1, longest: 1)),
        // Three in the cut part: met; then 2 of 2.
        (["2026-10-05", "2026-10-06", "2026-10-07", "2026-10-08", "2026-10-11"], ["2026-10-05": .completed, "2026-10-08": .completed], HabitStreak(current: 2, longest: 2)),
        // Nothing after the boundary yet: the new week is still open.
        (["2026-10-05", "2026-10-06", "2026-10-07"], ["2026-10-05": .completed, "2026-10-08": .missed], HabitStreak(current: 0, longest: 1)),
    ])
    func quotaBoundary(days: [String], states: [String: EntryState], streak: HabitStreak) throws {
        let habit = try habit(start: "2026-10-05", first: (Self.threeAWeek, .strict), boundary: "2026-10-08", second: (Self.twiceAWeek, .strict))
        let (timeline, statistics) = try evaluate(habit, days: days, today: "2026-10-12")
        #expect(timeline.periods.map(\.days) == [
            LocalDayRange(day("2026-10-05"), day("2026-10-07")),
            LocalDayRange(day("2026-10-08"), day("2026-10-11")),
            LocalDayRange(day("2026-10-12"), day("2026-10-12")),
        ])
        #expect(timeline.periods.map(\.times) == [3, 2, 2])
        for (first, state) in states {
            #expect(timeline.periods.first { $0.days.first == day(first) }?.state == state, "\(first)")
        }
        #expect(statistics.streak == streak)
    }

    @Test("from day-by-day to a quota: days count until the boundary, periods after")
    func dailyToQuota() throws {
        let habit = try habit(start: "2026-10-01", first: (.daily, .strict), boundary: "2026-10-05", second: (Self.twiceAWeek, .strict))
        let (timeline, statistics) = try evaluate(habit, days: ["2026-10-01", "2026-10-02", "2026-10-03", "2026-10-04", "2026-10-06", "2026-10-09"], today: "2026-10-13")
        #expect(timeline.segments.map(\.quota) == [nil, PeriodQuota(times: 2, period: .week)])
        #expect(timeline.outcomes.map(\.day.iso) == ["2026-10-01", "2026-10-02", "2026-10-03", "2026-10-04", "2026-10-11", "2026-10-13"])
        // Four days, then a met week: 5; the open week adds nothing yet.
        #expect(statistics.streak == HabitStreak(current: 5, longest: 5))
        #expect(statistics.completedDays == 5 && statistics.eligibleDays == 5)
    }

    @Test("the new streak rule starts from its initial state with current and longest carried, in both fold forms",
          arguments: [true, false])
    func carry(usesRangeForms: Bool) throws {
        let fixture = try PolicyFixture()
        let strict = try fixture.library.policy(named: "strict").bind(parameters: [:], startedOn: day("2026-10-01"), goal: 1, unit: "", usesRangeForms: usesRangeForms)
        let outcomes = try HistoryPattern.outcomes("YYNY")
        let carried = HabitStreak(current: 7, longest: 9)
        let statuses = outcomes.map(\.status.code)
        let result = try strict.streak(first: day("2026-10-01"), status: statuses, due: outcomes.map { $0.isDue ? 1 : 0 },
                                       totals: outcomes.map(\.total), progress: outcomes.map(\.progress), carrying: carried)
        #expect(result == HabitStreak(current: 1, longest: 9))
        let longer = try strict.streak(first: day("2026-10-01"), status: Array(statuses.prefix(2)), due: [1, 1], totals: [1, 1], progress: [1, 1], carrying: carried)
        #expect(longer == HabitStreak(current: 9, longest: 9))
        let grace = try fixture.library.policy(named: "grace").bind(parameters: [:], startedOn: day("2026-10-01"), goal: 1, unit: "")
        // grace's own state (its list of misses) starts empty: the first miss after the boundary is forgiven.
        let forgiven = try grace.streak(first: day("2026-10-01"), status: statuses, due: [1, 1, 1, 1], totals: [1, 1, 0, 1], progress: [1, 1, 0, 1], carrying: carried)
        #expect(forgiven == HabitStreak(current: 10, longest: 10))
    }
}
