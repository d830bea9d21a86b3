import Foundation
import Testing
@testable import StackDay

@Suite("Timeline, entries and streaks")
struct TimelineTests {
    /// Builds a daily goal-`goal` habit started on `start` with one completion per listed amount (0 = none).
    func timeline(start: String = "2026-10-01", amounts: [Double], goal: Double = 8, today: String,
                  archived: String? = nil, skipped: [String] = [], policies: HabitPolicies = .standard) throws -> HabitTimeline {
        let habit = try Habit(name: "water", startedOn: day(start), archivedOn: archived.map(day), createdAt: Date(timeIntervalSince1970: 0), goal: goal, unit: "cups")
        let completions = try amounts.enumerated().filter { $0.element > 0 }.map {
            try Completion(habitID: habit.id, completedOn: day(start).adding(days: $0.offset), recordedAt: Date(timeIntervalSince1970: 0), amount: $0.element)
        }
        let skips = skipped.map { Skip(habitID: habit.id, day: day($0), recordedAt: Date(timeIntervalSince1970: 0)) }
        return try HabitTimelineBuilder(policies: policies).build(habit: habit, completions: completions, skips: skips, today: day(today))
    }

    func streak(_ timeline: HabitTimeline) throws -> HabitStreak {
        try HabitStreakCalculator(policy: StrictStreak()).calculate(timeline)
    }

    @Test("seed 002: completed, pending today, missed in the past, nothing outside the period", arguments: [
        ("2026-10-01", EntryState?.some(.completed)),
        ("2026-10-02", .some(.missed)),
        ("2026-10-03", .some(.pending)),
        ("2026-09-30", nil),
        ("2026-10-04", nil),
    ])
    func entryStates(text: String, expected: EntryState?) throws {
        let line = try timeline(amounts: [8, 0, 0], today: "2026-10-03")
        #expect(line.entry(on: day(text))?.state == expected)
    }

    @Test("the archive day is the last tracked day, inclusive")
    func archiveDayIncluded() throws {
        let line = try timeline(amounts: [8, 8, 8, 8], today: "2026-10-10", archived: "2026-10-03")
        #expect(line.period == LocalDayRange(day("2026-10-01"), day("2026-10-03")))
        #expect(line.entry(on: day("2026-10-03"))?.state == .completed)
        #expect(line.entry(on: day("2026-10-04")) == nil)
    }

    @Test("seed 000 water: 7-day streak counted from yesterday while today is pending")
    func seedWater() throws {
        let line = try timeline(amounts: [8, 8, 6, 8, 8, 8, 9, 8, 8, 8, 5], today: "2026-10-11")
        #expect(line.entry(on: day("2026-10-11"))?.state == .pending)
        #expect(try streak(line) == HabitStreak(current: 7, longest: 7))
    }

    @Test("seed 000 exercise 3: Oct 10 at 5 cups and today at 5 cups gives current 0, longest 6")
    func seedExerciseThree() throws {
        let line = try timeline(amounts: [8, 8, 6, 8, 8, 8, 9, 8, 8, 5, 5], today: "2026-10-11")
        #expect(try streak(line) == HabitStreak(current: 0, longest: 6))
    }

    @Test("a skipped day neither counts nor breaks the streak")
    func skipKeepsStreak() throws {
        let line = try timeline(amounts: [8, 8, 0, 8], today: "2026-10-04", skipped: ["2026-10-03"])
        #expect(line.entry(on: day("2026-10-03"))?.state == .skipped)
        #expect(try streak(line) == HabitStreak(current: 3, longest: 3))
    }

    @Test("several completions on one day add up; totals are exact decimals")
    func totalsAddUp() throws {
        let habit = try Habit(name: "tea", startedOn: day("2026-10-01"), createdAt: Date(timeIntervalSince1970: 0), goal: 0.3, unit: "l")
        let completions = try [0.1, 0.2].map { try Completion(habitID: habit.id, completedOn: day("2026-10-01"), recordedAt: Date(timeIntervalSince1970: 0), amount: $0) }
        let line = try HabitTimelineBuilder(policies: .standard).build(habit: habit, completions: completions, skips: [], today: day("2026-10-01"))
        #expect(line.entries[0].total == 0.3)
        #expect(line.entries[0].state == .completed)
    }

    struct MondayWednesdayFriday: SchedulePolicy {
        func dueDays(_ days: LocalDayRange, habit: Habit) throws -> [Bool] { days.map { [1, 3, 5].contains($0.weekday) } }
    }

    @Test("days the schedule does not ask for leave the streak alone")
    func notDueDays() throws {
        let policies = HabitPolicies(schedule: MondayWednesdayFriday(), progress: GoalProgress(), streak: StrictStreak())
        // 2026-10-05 is a Monday: Mon, Wed, Fri met; Tue/Thu nothing.
        let line = try timeline(start: "2026-10-05", amounts: [8, 0, 8, 0, 8, 0, 0, 0], today: "2026-10-12", policies: policies)
        #expect(line.entry(on: day("2026-10-06"))?.state == .notDue)
        #expect(line.entry(on: day("2026-10-12"))?.state == .pending)
        #expect(try streak(line) == HabitStreak(current: 3, longest: 3))
    }

    @Test("the timeline is built in one pass even with many completions a day")
    func manyCompletions() throws {
        let habit = try Habit(name: "steps", startedOn: day("2016-01-01"), createdAt: Date(timeIntervalSince1970: 0), goal: 10, unit: "k")
        let today = day("2026-01-01")
        var completions: [Completion] = []
        for offset in 0..<(day("2016-01-01").days(to: today)) {
            for _ in 0..<3 { completions.append(try Completion(habitID: habit.id, completedOn: habit.startedOn.adding(days: offset), recordedAt: Date(timeIntervalSince1970: 0), amount: 4)) }
        }
        let line = try HabitTimelineBuilder(policies: .standard).build(habit: habit, completions: completions, skips: [], today: today)
        #expect(line.entries.count == 3654)
        #expect(line.entries.allSatisfy { $0.day == today || $0.total == 12 })
        #expect(try streak(line).current == 3653)
    }

    @Test("statistics: rate excludes today while pending; score follows Loop's formula")
    func statistics() throws {
        let line = try timeline(amounts: Array(repeating: 8, count: 20), today: "2026-10-20")
        let stats = try HabitStatisticsCalculator(streakCalculator: HabitStreakCalculator(policy: StrictStreak())).calculate(line)
        #expect(stats.completedDays == 20)
        #expect(stats.eligibleDays == 20)
        #expect(stats.completionRate == 1)
        #expect(abs(stats.score - 0.655747) < 0.000001)

        let pending = try timeline(amounts: [8, 0, 8, 3], today: "2026-10-04")
        let partial = try HabitStatisticsCalculator(streakCalculator: HabitStreakCalculator(policy: StrictStreak())).calculate(pending)
        #expect(partial.completedDays == 2)
        #expect(partial.eligibleDays == 3)
        #expect(abs(partial.completionRate - 2.0 / 3) < 1e-12)
    }
}
