import Foundation
import Testing
import StackDay
import StackDayLua
import StackDayTestSupport

@Suite("Built-in policies")
struct BuiltInPolicyTests {
    static let names = ["daily", "weekdays", "weekly", "every-n-days", "monthly-day", "monthly-last-day", "monthly-nth-weekday",
                        "times-per-week", "times-per-month", "times-in-days", "rrule", "goal", "at-most", "strict", "grace", "freeze",
                        "all", "any", "at-least", "sum"]

    @Test("every example in the file passes", arguments: names)
    func examples(name: String) throws {
        let fixture = try PolicyFixture()
        let policy = try fixture.library.policy(named: name)
        #expect(!policy.info.description.isEmpty)
        #expect(!policy.info.examples.isEmpty)
        let report = PolicyChecker(library: fixture.library).check(policy)
        #expect(report.failures == [])
        #expect(report.examples == policy.info.examples.count && report.passed == report.examples)
    }

    @Test("the worked examples in docs/examples pass their own examples", arguments: ["payday", "half-goal", "best-of-three", "best-of-three.next", "two-in-a-row", "weighted-routine"])
    func documentedExamples(name: String) throws {
        let docs = builtInPolicies.deletingLastPathComponent().appendingPathComponent("docs/examples")
        let library = try PolicyLibrary(searchPath: [docs])
        let report = PolicyChecker(library: library).check(try library.policy(at: docs.appendingPathComponent(name + ".lua")))
        #expect(report.failures == [])
        #expect(report.examples >= 2 && report.passed == report.examples)
    }

    @Test("a schema's unknown key or type is a failing check naming it, with what was meant")
    func schemaMistakes() throws {
        let fixture = try PolicyFixture(["sloppy": """
        return {
          params = { x = 1, days = {} },
          schema = { x = { type = "table", min = 3 }, days = { items = { type = "text", values = {} } }, y = 4 },
          progress = function(total, goal) return math.min(1, total / goal) end,
        }
        """])
        let report = PolicyChecker(library: fixture.library).check(try fixture.library.policy(named: "sloppy"))
        #expect(report.failures == [
            "schema.days.items: unknown key 'values' (the keys are type, enum)",
            #"schema.days.items.type: "text" is not one of integer, number, string, boolean, array, object"#,
            "schema.x: unknown key 'min' (the keys are type, required, enum, minimum, maximum, minItems, items, description, example); did you mean 'minimum'?",
            #"schema.x.type: "table" is not one of integer, number, string, boolean, array, object"#,
            #"schema.y: must be a table such as { type = "integer", description = "…" }"#,
        ], "\(report.failures)")
    }

    @Test("the last day of each month across 2023, 2024 and February 2100")
    func monthlyLastDay() throws {
        let fixture = try PolicyFixture()
        #expect(try fixture.dueDays("monthly-last-day", from: "2023-01-01", to: "2024-12-31") == [
            "2023-01-31", "2023-02-28", "2023-03-31", "2023-04-30", "2023-05-31", "2023-06-30",
            "2023-07-31", "2023-08-31", "2023-09-30", "2023-10-31", "2023-11-30", "2023-12-31",
            "2024-01-31", "2024-02-29", "2024-03-31", "2024-04-30", "2024-05-31", "2024-06-30",
            "2024-07-31", "2024-08-31", "2024-09-30", "2024-10-31", "2024-11-30", "2024-12-31",
        ])
        #expect(try fixture.dueDays("monthly-last-day", from: "2100-02-01", to: "2100-03-01") == ["2100-02-28"])
    }

    @Test("the 31st of each month: skipped in short months, or moved to their last day")
    func monthlyThirtyFirst() throws {
        let fixture = try PolicyFixture()
        #expect(try fixture.dueDays("monthly-day", from: "2024-01-01", to: "2024-12-31", params: ["day": .number(31)]) == [
            "2024-01-31", "2024-03-31", "2024-05-31", "2024-07-31", "2024-08-31", "2024-10-31", "2024-12-31",
        ])
        #expect(try fixture.dueDays("monthly-day", from: "2024-01-01", to: "2024-06-30", params: ["day": .number(31), "shortMonth": .string("last")]) == [
            "2024-01-31", "2024-02-29", "2024-03-31", "2024-04-30", "2024-05-31", "2024-06-30",
        ])
        #expect(try fixture.dueDays("monthly-day", from: "2023-02-01", to: "2023-03-31", params: ["day": .number(29), "shortMonth": .string("last")]) == [
            "2023-02-28", "2023-03-29",
        ])
        #expect(try fixture.dueDays("monthly-day", from: "2100-02-01", to: "2100-02-28", params: ["day": .number(29)]) == [])
    }

    @Test("the 2nd Tuesday, the last Friday and the 5th Monday of each month of 2026")
    func nthWeekday() throws {
        let fixture = try PolicyFixture()
        #expect(try fixture.dueDays("monthly-nth-weekday", from: "2026-01-01", to: "2026-12-31", params: ["nth": .number(2), "weekday": .string("tue")]) == [
            "2026-01-13", "2026-02-10", "2026-03-10", "2026-04-14", "2026-05-12", "2026-06-09",
            "2026-07-14", "2026-08-11", "2026-09-08", "2026-10-13", "2026-11-10", "2026-12-08",
        ])
        #expect(try fixture.dueDays("monthly-nth-weekday", from: "2026-01-01", to: "2026-12-31", params: ["nth": .number(-1), "weekday": .string("fri")]) == [
            "2026-01-30", "2026-02-27", "2026-03-27", "2026-04-24", "2026-05-29", "2026-06-26",
            "2026-07-31", "2026-08-28", "2026-09-25", "2026-10-30", "2026-11-27", "2026-12-25",
        ])
        #expect(try fixture.dueDays("monthly-nth-weekday", from: "2026-01-01", to: "2026-12-31", params: ["nth": .number(5), "weekday": .string("mon")]) == [
            "2026-03-30", "2026-06-29", "2026-08-31", "2026-11-30",
        ])
    }

    @Test("weekly and weekdays across a year end")
    func yearEnd() throws {
        let fixture = try PolicyFixture()
        #expect(try fixture.dueDays("weekly", from: "2026-12-28", to: "2027-01-04", params: ["days": .array(["mon", "wed", "fri"].map(JSONValue.string))]) == ["2026-12-28", "2026-12-30", "2027-01-01", "2027-01-04"])
        #expect(try fixture.dueDays("weekdays", from: "2026-12-31", to: "2027-01-05") == ["2026-12-31", "2027-01-01", "2027-01-04", "2027-01-05"])
        #expect(try fixture.dueDays("daily", from: "2024-02-28", to: "2024-03-01").count == 3)
    }

    @Test("every 3 days from the habit's start, across February 2100 and a leap February")
    func everyNDays() throws {
        let fixture = try PolicyFixture()
        #expect(try fixture.dueDays("every-n-days", from: "2100-02-27", to: "2100-03-06", params: ["every": .number(3)]) == ["2100-02-27", "2100-03-02", "2100-03-05"])
        #expect(try fixture.dueDays("every-n-days", from: "2024-02-26", to: "2024-03-04", params: ["every": .number(3)], start: "2024-02-20") == ["2024-02-26", "2024-02-29", "2024-03-03"])
        #expect(try fixture.dueDays("every-n-days", from: "2026-10-01", to: "2026-10-03", params: ["every": .number(2)], start: "2026-10-05") == [])
    }

    @Test("streak rules simulated day by day", arguments: [
        ("strict", "YYNYY-Y.Y", [:], 4, 4),
        ("grace", "YYNYY", ["misses": JSONValue.number(1), "per": .number(7)], 4, 4),
        ("grace", "YNNY", [:], 1, 1),
        ("freeze", "YYYNY", ["earnEvery": .number(3), "max": .number(2)], 4, 4),
        ("freeze", "YYNY", ["earnEvery": .number(3)], 1, 2),
    ])
    func streaks(name: String, history: String, params: [String: JSONValue], current: Int, longest: Int) throws {
        let fixture = try PolicyFixture()
        let binding = try fixture.library.policy(named: name).bind(parameters: params, startedOn: day("2026-10-01"), goal: 1, unit: "")
        let steps = try StreakSimulator(binding: binding).simulate(pattern: history, from: day("2026-10-01"))
        #expect(steps.count == history.count)
        #expect(steps.last?.streak == HabitStreak(current: current, longest: longest))
        #expect(steps.last?.day == day("2026-10-01").adding(days: history.count - 1))
    }

    @Test("range forms give the same answers as one call a day", arguments: ["daily", "goal", "strict"])
    func rangeForms(name: String) throws {
        let fixture = try PolicyFixture()
        let policy = try fixture.library.policy(named: name)
        var generator = SeededGenerator(seed: 0x5EED_0001)
        for _ in 0..<20 {
            let first = day("2023-12-20").adding(days: Int.random(in: 0..<800, using: &generator))
            let range = LocalDayRange(first, first.adding(days: Int.random(in: 0..<400, using: &generator)))
            let fast = try policy.bind(parameters: [:], startedOn: first, goal: 3, unit: "cups")
            let slow = try policy.bind(parameters: [:], startedOn: first, goal: 3, unit: "cups", usesRangeForms: false)
            if policy.info.roles.contains(.schedule) {
                #expect(try fast.dueDays(range) == slow.dueDays(range))
            }
            if policy.info.roles.contains(.progress) {
                let totals = range.map { _ in Double(Int.random(in: 0..<7, using: &generator)) / 2 }
                #expect(try fast.progress(totals: totals, days: range) == slow.progress(totals: totals, days: range))
            }
            if policy.info.roles.contains(.streak) {
                let statuses = StreakOutcome.Status.allCases
                let outcomes = range.map { _ in
                    let status = statuses[Int.random(in: 0..<statuses.count, using: &generator)]
                    return StreakOutcome(status: status, isDue: status != .notDue, total: status == .completed ? 1 : 0, progress: status == .completed ? 1 : 0)
                }
                #expect(try fast.streak(first: first, outcomes: outcomes) == slow.streak(first: first, outcomes: outcomes))
            }
        }
    }

    @Test("a range form without its per-day function is refused")
    func rangeFormNeedsRole() throws {
        let fixture = try PolicyFixture(["lonely": "return { progress = function() return 1 end, dueRange = function() return true end }"])
        let error = try #require(policyError { _ = try fixture.library.policy(named: "lonely") })
        #expect(error.message.contains("'dueRange' needs 'isDue' too"))
    }

    @Test("wrong answers from range forms are errors naming the policy", arguments: [
        ("return { isDue = function() return true end, dueRange = function() return 'all' end }", "dueRange returned string"),
        ("return { isDue = function() return true end, dueRange = function(f, l) return { l + 1 } end }", "a day outside the range"),
        ("return { progress = function() return 1 end, progressRange = function() return { 0.5, 0/0 } end }", "progress returned NaN"),
        ("return { streak = function(s) return s end, streakRange = function() return 3 end }", "streakRange returned number"),
    ])
    func wrongRangeAnswers(source: String, message: String) throws {
        let fixture = try PolicyFixture(["ranged": source])
        let policy = try fixture.library.policy(named: "ranged")
        let binding = try policy.bind(parameters: [:], startedOn: day("2026-10-01"), goal: 1, unit: "")
        let range = LocalDayRange(day("2026-10-01"), day("2026-10-10"))
        let error = try #require(policyError {
            if policy.info.roles.contains(.schedule) { _ = try binding.dueDays(range) }
            if policy.info.roles.contains(.progress) { _ = try binding.progress(totals: Array(repeating: 1, count: 10), days: range) }
            if policy.info.roles.contains(.streak) {
                _ = try binding.streak(first: range.first, outcomes: Array(repeating: StreakOutcome(status: .completed, isDue: true, total: 1, progress: 1), count: 10))
            }
        })
        #expect(error.kind == .wrongAnswer)
        #expect(error.description.contains(message), "\(error)")
    }

    @Test("Lua policies drive the timeline like the Swift defaults")
    func timelineThroughLua() throws {
        let fixture = try PolicyFixture()
        let habit = try Habit(name: "water", startedOn: day("2026-10-01"), createdAt: Date(timeIntervalSince1970: 0), goal: 8, unit: "cups")
        let amounts: [Double] = [8, 8, 6, 8, 8, 8, 9, 8, 8, 5, 5]
        let completions = try amounts.enumerated().map {
            try Completion(habitID: habit.id, completedOn: day("2026-10-01").adding(days: $0.offset), recordedAt: Date(timeIntervalSince1970: 0), amount: $0.element)
        }
        for policies in [try fixture.library.policies(for: habit, revision: habit.latest, scripts: InMemoryPolicyScriptRepository()), HabitPolicies.standard] {
            let timeline = try HabitTimelineBuilder(policies: policies).build(habit: habit, completions: completions, skips: [], today: day("2026-10-11"))
            #expect(try HabitStreakCalculator(policy: policies.streak).calculate(timeline) == HabitStreak(current: 0, longest: 6))
            #expect(timeline.entries.map(\.progress)[2] == 0.75)
        }
    }

    /// Statistics and streak of a habit under `schedule` with completions on `days`, as of `today`.
    func quotaStatistics(_ schedule: PolicyChoice, start: String, days: [String], today: String) throws -> (HabitTimeline, HabitStatistics) {
        let fixture = try PolicyFixture()
        let habit = try Habit(name: "gym", startedOn: day(start), createdAt: Date(timeIntervalSince1970: 0), schedule: schedule)
        let policies = try fixture.library.policies(for: habit, revision: habit.latest, scripts: InMemoryPolicyScriptRepository())
        let completions = try days.map { try Completion(habitID: habit.id, completedOn: day($0), recordedAt: Date(timeIntervalSince1970: 0)) }
        let timeline = try HabitTimelineBuilder(policies: policies).build(habit: habit, completions: completions, skips: [], today: day(today))
        let statistics = try HabitStatisticsCalculator(streakCalculator: HabitStreakCalculator(policy: policies.streak)).calculate(timeline)
        return (timeline, statistics)
    }

    @Test("times-per-week: a week with N completed days is met; streaks and rates count weeks")
    func timesPerWeek() throws {
        let (timeline, stats) = try quotaStatistics(
            PolicyChoice(name: "times-per-week", parameters: ["times": .number(3)]), start: "2026-09-28",
            days: ["2026-09-28", "2026-09-30", "2026-10-04",   // week 1: met
                   "2026-10-05", "2026-10-06", "2026-10-07",   // week 2: met
                   "2026-10-12", "2026-10-18",                 // week 3: 2 of 3, missed
                   "2026-10-19", "2026-10-20", "2026-10-21",   // week 4: met
                   "2026-10-26"],                              // week 5: open, 1 of 3
            today: "2026-10-28"
        )
        #expect(timeline.periods.map(\.state) == [.completed, .completed, .missed, .completed, .pending])
        #expect(stats.streak == HabitStreak(current: 1, longest: 2))
        #expect(stats.completedDays == 3 && stats.eligibleDays == 4)
        #expect(timeline.entry(on: day("2026-10-13"))?.state == .notDue)
        #expect(timeline.entry(on: day("2026-10-28"))?.state == .pending)
    }

    @Test("days after today meet no quota, even where a policy calls an empty day met (at-most)")
    func futureDaysMeetNothing() throws {
        let fixture = try PolicyFixture()
        let habit = try Habit(name: "sweets", startedOn: day("2026-09-04"), createdAt: Date(timeIntervalSince1970: 0),
                              schedule: PolicyChoice(name: "times-per-week", parameters: ["times": .number(2)]),
                              progress: PolicyChoice(name: "at-most", parameters: ["limit": .number(2)]))
        let policies = try fixture.library.policies(for: habit, revision: habit.latest, scripts: InMemoryPolicyScriptRepository())
        // Monday the 21st: only today has passed in its week, so the week is still open — also
        // in a timeline that runs on to Sunday, as the weekly report's does.
        for through in [day("2026-09-21"), day("2026-09-27")] {
            let timeline = try HabitTimelineBuilder(policies: policies).build(habit: habit, completions: [], skips: [], today: day("2026-09-21"), through: through)
            #expect(timeline.periods.map(\.state) == [.completed, .completed, .completed, .pending], "through \(through)")
            #expect(try HabitStreakCalculator(policy: policies.streak).calculate(timeline) == HabitStreak(current: 3, longest: 3))
        }
    }

    @Test("times-per-month across February in a leap year and not")
    func timesPerMonth() throws {
        let (timeline, stats) = try quotaStatistics(
            PolicyChoice(name: "times-per-month", parameters: ["times": .number(2)]), start: "2024-01-15",
            days: ["2024-01-20", "2024-01-31", "2024-02-29", "2024-03-01", "2024-03-31"], today: "2024-04-02"
        )
        #expect(timeline.periods.map(\.days.first.iso) == ["2024-01-15", "2024-02-01", "2024-03-01", "2024-04-01"])
        #expect(timeline.periods.map(\.state) == [.completed, .missed, .completed, .pending])
        #expect(stats.streak == HabitStreak(current: 1, longest: 1))
    }

    @Test("times-in-days judges the rolling window ending on each day")
    func timesInDays() throws {
        let (timeline, _) = try quotaStatistics(
            PolicyChoice(name: "times-in-days", parameters: ["times": .number(2), "days": .number(3)]), start: "2026-10-01",
            days: ["2026-10-01", "2026-10-02", "2026-10-05", "2026-10-06"], today: "2026-10-07"
        )
        // windows: 10-01 (1 day, not full), 10-02 ✓, 10-03 ✓ (01-03 has 2), 10-04 ✗ (02-04 has 1), 10-05 ✗ (03-05 has 1), 10-06 ✓, 10-07 ✓
        #expect(timeline.periods.map(\.state) == [.notDue, .completed, .completed, .missed, .missed, .completed, .completed])
    }
}
