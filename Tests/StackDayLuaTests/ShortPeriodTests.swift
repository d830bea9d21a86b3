import Foundation
import Testing
@testable import StackDay
@testable import StackDayLua

/// A quota period cut short by the habit's start or archive day asks for a quota scaled to the
/// days it tracks: it is never missed only because it is short.
@Suite("quota periods cut short by the start or the archive")
struct ShortPeriodTests {
    let epoch = Date(timeIntervalSince1970: 0)

    func periods(start: String, archived: String? = nil, times: Int, per: String = "week", done: [String], today: String) throws -> [HabitPeriod] {
        let fixture = try PolicyFixture()
        let schedule = PolicyChoice(name: per == "week" ? "times-per-week" : "times-per-month", parameters: ["times": .number(Double(times))])
        let habit = try Habit(name: "run", startedOn: day(start), archivedOn: archived.map(day), createdAt: epoch, schedule: schedule)
        let policies = RevisionPolicies(habit: habit, resolver: fixture.library, scripts: InMemoryPolicyScriptRepository())
        let completions = try done.map { try Completion(habitID: habit.id, completedOn: day($0), recordedAt: epoch) }
        return try HabitTimelineBuilder(policies: policies).build(habit: habit, completions: completions, skips: [], today: day(today)).periods
    }

    @Test("started on a Sunday: 3 a week asks one day of that first week", arguments: [
        ([String](), EntryState.missed), (["2026-10-11"], .completed),
    ])
    func startedOnSunday(done: [String], first: EntryState) throws {
        let periods = try periods(start: "2026-10-11", times: 3, done: done + ["2026-10-12", "2026-10-13", "2026-10-14"], today: "2026-10-20")
        #expect(periods.first?.days == LocalDayRange(day("2026-10-11"), day("2026-10-11")))
        #expect(periods.first?.times == 1)
        #expect(periods.first?.state == first)
        // The next week, whole, asks for the whole quota.
        #expect(periods.dropFirst().first?.times == 3 && periods.dropFirst().first?.state == .completed)
    }

    @Test("archived on a Tuesday: the last week asks ceil(3 × 2 / 7) = 1 day, and is judged once past", arguments: [
        ([String](), EntryState.missed), (["2026-10-13"], .completed),
    ])
    func archivedOnTuesday(done: [String], last: EntryState) throws {
        let periods = try periods(start: "2026-10-05", archived: "2026-10-13", times: 3,
                                  done: ["2026-10-05", "2026-10-06", "2026-10-07"] + done, today: "2026-10-20")
        #expect(periods.map(\.days.first.iso) == ["2026-10-05", "2026-10-12"])
        #expect(periods.last?.times == 1)
        #expect(periods.last?.state == last)
    }

    @Test("a month started on the 25th of a 31-day month asks ceil(10 × 7 / 31) = 3 days")
    func monthStartedLate() throws {
        let periods = try periods(start: "2026-10-25", times: 10, per: "month", done: ["2026-10-26", "2026-10-27", "2026-10-28"], today: "2026-11-03")
        #expect(periods.first?.times == 3 && periods.first?.state == .completed)
        #expect(periods.dropFirst().first?.times == 10 && periods.dropFirst().first?.state == .pending)
    }

    @Test(arguments: [(3, 1, 7, 1), (3, 2, 7, 1), (3, 3, 7, 2), (3, 7, 7, 3), (7, 1, 7, 1), (10, 7, 31, 3), (1, 1, 31, 1)])
    func scaled(times: Int, days: Int, length: Int, needed: Int) {
        #expect(QuotaTimeline.needed(times: times, days: days, length: length) == needed)
    }
}
