import Foundation
import Testing
@testable import StackDay
@testable import StackDayLua

/// Quota weeks that begin on Sunday, and a habit whose weeks move from Monday to Sunday (or back)
/// by a new revision: the week the move splits is two short weeks, each asked its share.
@Suite("quota weeks from Sunday, and a move of the week's first day")
struct WeekStartTimelineTests {
    let epoch = Date(timeIntervalSince1970: 0)

    func schedule(_ times: Int, _ start: WeekStart?) -> PolicyChoice {
        var parameters: [String: JSONValue] = ["times": .number(Double(times))]
        if let start { parameters["weekStart"] = .string(start.rawValue) }
        return PolicyChoice(name: "times-per-week", parameters: parameters)
    }

    func periods(_ habit: Habit, done: [String], today: String) throws -> [HabitPeriod] {
        let fixture = try PolicyFixture()
        let policies = RevisionPolicies(habit: habit, resolver: fixture.library, scripts: InMemoryPolicyScriptRepository())
        let completions = try done.map { try Completion(habitID: habit.id, completedOn: day($0), recordedAt: epoch) }
        return try HabitTimelineBuilder(policies: policies).build(habit: habit, completions: completions, skips: [], today: day(today)).periods
    }

    @Test("the first day of a week for each start", arguments: [
        ("2026-10-11", WeekStart.monday, "2026-10-05"), ("2026-10-11", .sunday, "2026-10-11"), ("2026-10-12", .monday, "2026-10-12"),
        ("2026-10-12", .sunday, "2026-10-11"), ("2026-10-17", .sunday, "2026-10-11"), ("2026-10-17", .monday, "2026-10-12"),
        ("2027-01-01", .sunday, "2026-12-27"), ("2027-01-01", .monday, "2026-12-28"),
    ])
    func startOfWeek(dayText: String, start: WeekStart, first: String) {
        #expect(day(dayText).startOfWeek(start) == day(first))
        #expect(day(dayText).startOfWeek(start).weekday == start.isoWeekday)
    }

    @Test("weekStart sun: Sunday to Saturday weeks; mon, or none, as before", arguments: [
        (WeekStart?.none, ["2026-10-05", "2026-10-12"]), (.monday, ["2026-10-05", "2026-10-12"]), (.sunday, ["2026-10-04", "2026-10-11"]),
    ])
    func weeks(start: WeekStart?, firsts: [String]) throws {
        let habit = try Habit(name: "run", startedOn: day("2026-10-04"), createdAt: epoch, schedule: schedule(3, start))
        // Sunday, Monday, Tuesday: one Sunday week met; under Monday weeks, a short first week and two of three.
        let periods = try periods(habit, done: ["2026-10-04", "2026-10-05", "2026-10-06"], today: "2026-10-13")
        #expect(Array(periods.map(\.days.first.iso).dropFirst()) == (start == .sunday ? [firsts[1]] : firsts))
        if start == .sunday {
            #expect(periods.first?.days == LocalDayRange(day("2026-10-04"), day("2026-10-10")) && periods.first?.state == .completed)
        } else {
            #expect(periods.first?.days == LocalDayRange(day("2026-10-04"), day("2026-10-04")) && periods.first?.times == 1)
            #expect(periods.dropFirst().first?.state == .missed && periods.dropFirst().first?.count == 2)
        }
    }

    @Test("a move of the week's first day splits one week in two, each asked its share", arguments: [
        // Monday weeks, then Sunday weeks from Wednesday 10-14: Mon–Tue asks ceil(3 × 2 / 7) = 1, Wed–Sat ceil(3 × 4 / 7) = 2.
        (WeekStart.monday, WeekStart.sunday, "2026-10-14", ["2026-10-12", "2026-10-14", "2026-10-15"],
         [("2026-10-12", "2026-10-13", 1, EntryState.completed), ("2026-10-14", "2026-10-17", 2, .completed), ("2026-10-18", "2026-10-20", 3, .pending)]),
        // Sunday weeks, then Monday weeks from Monday 10-12: the Sunday 10-11 alone asks 1. (A period
        // still running is listed up to today.)
        (.sunday, .monday, "2026-10-12", ["2026-10-12"],
         [("2026-10-11", "2026-10-11", 1, .missed), ("2026-10-12", "2026-10-18", 3, .missed), ("2026-10-19", "2026-10-20", 3, .pending)]),
    ] as [(WeekStart, WeekStart, String, [String], [(String, String, Int, EntryState)])])
    func move(from old: WeekStart, to new: WeekStart, on change: String, done: [String], expected: [(String, String, Int, EntryState)]) throws {
        let start = old == .sunday ? "2026-10-04" : "2026-10-05"
        let habit = try Habit(name: "run", startedOn: day(start), createdAt: epoch, schedule: schedule(3, old))
            .appending(try habit0(old).latest.with(schedule: schedule(3, new)), from: day(change), at: epoch)
        let periods = try periods(habit, done: done, today: "2026-10-20").filter { $0.days.first >= day("2026-10-11") }
        #expect(periods.count == expected.count, "\(periods.map { "\($0.days) \($0.times) \($0.state)" })")
        for (period, (first, last, times, state)) in zip(periods, expected) {
            #expect(period.days == LocalDayRange(day(first), day(last)) && period.times == times && period.state == state,
                    "\(period.days) asks \(period.times): \(period.state)")
        }
    }

    func habit0(_ start: WeekStart) throws -> Habit {
        try Habit(name: "run", startedOn: day("2026-10-04"), createdAt: epoch, schedule: schedule(3, start))
    }
}
