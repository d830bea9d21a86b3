import Foundation
import Testing
import StackDay
import StackDayTestSupport

/// Parses a command's stdout as one JSON document.
func jsonObject(_ text: String) throws -> [String: Any] {
    let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try #require(value as? [String: Any], "not a JSON object: \(text)")
}

/// The column each row's second field starts at, in terminal cells.
func secondColumnStarts(_ lines: [String], width: (String) -> Int) -> [Int] {
    lines.compactMap { line in
        guard let range = line.range(of: "  ") else { return nil }
        var end = range.upperBound
        while end < line.endIndex, line[end] == " " { end = line.index(after: end) }
        return width(String(line[..<end]))
    }
}

/// Terminal cells of text, counted independently of the code under test: wide East Asian and
/// emoji scalars are two, combining marks none.
func cells(_ text: String) -> Int {
    text.unicodeScalars.reduce(0) { total, scalar in
        let value = scalar.value
        if scalar.properties.generalCategory == .nonspacingMark { return total }
        if (0xAC00...0xD7A3).contains(value) || (0x3040...0x30FF).contains(value) || (0x4E00...0x9FFF).contains(value)
            || (0x1F300...0x1FAFF).contains(value) { return total + 2 }
        return total + 1
    }
}

@Suite("hardening: isolation, restores, quota streaks, strict input", .serialized)
struct HardeningTests {
    /// How errors name a habit's stored script: `broken.lua@` and the first 12 hex digits of its hash.
    static func stored(_ source: String) -> String { "broken.lua@" + SHA256(of: source).description.prefix(12) }

    static let raises = "return {\n  isDue = function(day) error('broken on purpose') end,\n}\n"
    static let leaks = "return {\n  isDue = function(day) leaked = 1 return true end,\n}\n"
    static let broken: [(String, String, String)] = [
        ("raises", raises, stored(raises) + ":2): broken on purpose"),
        ("nan", "return {\n  progress = function(total, goal) return 0/0 end,\n}\n", "progress returned NaN"),
        ("global", leaks, stored(leaks) + ":2"),
    ]

    func fixtureWithBrokenHabit(_ source: String, role: String) throws -> CLIFixture {
        let cli = try CLIFixture()
        try cli.writePolicy("broken", source)
        #expect(try cli.run(["habit", "add", "water", "--goal", "8", "--start", "2026-10-01"]).status == 0)
        #expect(try cli.run(["habit", "add", "독서", "--\(role)", "broken", "--start", "2026-10-01"]).status == 0)
        #expect(try cli.run(["habit", "add", "walk", "--start", "2026-10-01"]).status == 0)
        #expect(try cli.run(["record", "water", "8", "--on", "2026-10-11"]).status == 0)
        #expect(try cli.run(["record", "walk", "--on", "2026-10-10"]).status == 0)
        return cli
    }

    @Test("one failing policy: every other habit is shown, the failing one names its policy, exit 1",
          arguments: [0, 1, 2])
    func faultIsolation(index: Int) throws {
        let (kind, source, message) = Self.broken[index]
        let cli = try fixtureWithBrokenHabit(source, role: kind == "nan" ? "progress" : "schedule")
        for command in [["today"], ["stats"], ["report", "week"], ["report", "week", "--lang", "ko"], ["habit", "show", "독서"]] {
            let result = try cli.run(command)
            #expect(result.status == 1, "\(command) \(kind)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.stderr.contains("a policy failed for 1 habit ('독서')"), "\(result.stderr)")
            #expect(result.stdout.contains(message), "\(command) \(kind): \(result.stdout)")
            if command != ["habit", "show", "독서"] {
                #expect(result.stdout.contains("water"), "\(command): \(result.stdout)")
                #expect(result.stdout.contains("walk"), "\(command): \(result.stdout)")
            }
        }
        let week = try cli.run(["report", "week"]).stdout
        #expect(week.contains("water | ○ ○ ○ ○ ○ ○ ● | total 8 | met 1/7 days | streak 1 day (longest 1)"), "\(week)")
        #expect(week.contains("독서 | error: policy broken"), "\(week)")
        // The most consistent habit is chosen among the habits that could be computed (a tie: the first listed).
        #expect(week.hasSuffix("\nMost consistent: water (1/7 days)\n"), "\(week)")
        for command in [["today", "--json"], ["stats", "--json"], ["report", "week", "--json"]] {
            let result = try cli.run(command)
            #expect(result.status == 1)
            let habits = try #require(try jsonObject(result.stdout)["habits"] as? [[String: Any]])
            #expect(habits.map { $0["name"] as? String } == ["water", "독서", "walk"])
            let failed = habits[1]
            #expect((failed["error"] as? String)?.contains(message) == true, "\(failed)")
            #expect(failed["current"] == nil)
            #expect(habits[0]["error"] == nil && habits[2]["error"] == nil)
        }
        // calendar with several names: the healthy ones drawn, the failing one named with its error.
        let calendar = try cli.run(["calendar", "water", "독서", "walk", "--from", "2026-10-05"])
        #expect(calendar.status == 1)
        #expect(calendar.stdout.contains("water: 2026-10-05 … 2026-10-11") && calendar.stdout.contains("walk: 2026-10-05 … 2026-10-11"))
        #expect(calendar.stdout.contains("독서: error: policy broken ("), "\(calendar.stdout)")
        #expect(calendar.stdout.contains(message), "\(calendar.stdout)")
        let calendars = try jsonObject(try cli.run(["calendar", "water", "독서", "--json"]).stdout)["calendars"] as? [[String: Any]]
        #expect(calendars?.count == 2 && calendars?[1]["error"] != nil && calendars?[0]["days"] != nil)
        let page = cli.folder.path("page.html")
        let html = try cli.run(["report", "html", "--out", page])
        #expect(html.status == 1)
        let text = try String(contentsOfFile: page, encoding: .utf8)
        #expect(text.contains("<h2>water</h2>") && text.contains("<h2>walk</h2>"))
        #expect(text.contains("<p class=\"error\">policy broken"))
        // Export is not affected by a broken policy.
        #expect(try cli.run(["export"]).status == 0)
    }

    /// A streak rule that counts the outcomes handed to it (longest) and those whose day passes
    /// `check` (current), so a test can see which days the fold was given.
    static let probe = """
    return {
      params = { check = "sunday" },
      streak = function(state, day, outcome, params)
        local ok
        if params.check == "sunday" then ok = day.weekday == 7
        elseif params.check == "monthEnd" then ok = day.day == day.daysInMonth
        else ok = state.last == nil or day.ordinal == state.last + 1 end
        state.last = day.ordinal
        state.longest = state.longest + 1
        if ok then state.current = state.current + 1 end
        return state
      end,
    }
    """

    @Test("a quota habit's streak rule is handed each period with its own last day", arguments: [
        // 5 weeks from Monday 09-07; the open one ends today, a Sunday.
        ("times-per-week", #"{"times":2}"#, "2026-09-07", "sunday", 5, 5),
        // June to September end on their last days; October is open and ends today, the 11th.
        ("times-per-month", #"{"times":2}"#, "2026-06-01", "monthEnd", 5, 4),
        // A rolling window is judged on each day, so the days follow one another.
        ("times-in-days", #"{"times":2,"days":5}"#, "2026-09-28", "consecutive", 14, 14),
    ])
    func quotaStreakDays(schedule: String, params: String, start: String, check: String, outcomes: Int, matching: Int) throws {
        let cli = try CLIFixture(now: "2026-10-11T20:00:00+09:00")
        try cli.writePolicy("probe", Self.probe)
        let add = try cli.run(["habit", "add", "q", "--schedule", schedule, "--schedule-params", params, "--streak", "probe",
                               "--streak-params", #"{"check":"\#(check)"}"#, "--start", start])
        #expect(add.status == 0, "\(add.stderr)")
        let stats = try jsonObject(try cli.run(["stats", "--json"]).stdout)
        let habit = try #require((stats["habits"] as? [[String: Any]])?.first)
        #expect(habit["longest"] as? Int == outcomes, "\(habit)")
        #expect(habit["current"] as? Int == matching, "\(habit)")
    }

    @Test("grace on a times-per-week habit: misses two weeks apart are each forgiven")
    func graceOnQuota() throws {
        let cli = try CLIFixture(now: "2026-10-11T20:00:00+09:00")
        #expect(try cli.run(["habit", "add", "gym", "--schedule", "times-per-week", "--schedule-params", #"{"times":2}"#,
                             "--streak", "grace", "--streak-params", #"{"misses":1,"per":14}"#, "--start", "2026-09-07"]).status == 0)
        // Weeks of 09-07, 09-21 and 10-05 are met; 09-14 and 09-28 are missed.
        for day in ["2026-09-07", "2026-09-09", "2026-09-21", "2026-09-22", "2026-10-05", "2026-10-06"] {
            #expect(try cli.run(["record", "gym", "--on", day]).status == 0)
        }
        let stats = try jsonObject(try cli.run(["stats", "--json"]).stdout)
        let habit = try #require((stats["habits"] as? [[String: Any]])?.first)
        // Misses on 09-20 and 10-04 are 14 days apart: neither window of 14 days holds two.
        #expect(habit["current"] as? Int == 3, "\(habit)")
        #expect(habit["longest"] as? Int == 3, "\(habit)")
        #expect(habit["completedDays"] as? Int == 3 && habit["eligibleDays"] as? Int == 5, "\(habit)")
    }

    @Test("freeze on a times-per-week habit spends a freeze on a missed week")
    func freezeOnQuota() throws {
        let cli = try CLIFixture(now: "2026-10-11T20:00:00+09:00")
        #expect(try cli.run(["habit", "add", "gym", "--schedule", "times-per-week", "--schedule-params", #"{"times":1}"#,
                             "--streak", "freeze", "--streak-params", #"{"earnEvery":2,"max":1}"#, "--start", "2026-09-07"]).status == 0)
        // Met, met (a freeze earned), missed (spent), met, met.
        for day in ["2026-09-08", "2026-09-15", "2026-09-29", "2026-10-06"] {
            #expect(try cli.run(["record", "gym", "--on", day]).status == 0)
        }
        let habit = try #require((try jsonObject(try cli.run(["stats", "--json"]).stdout)["habits"] as? [[String: Any]])?.first)
        #expect(habit["current"] as? Int == 4, "\(habit)")
        #expect(habit["longest"] as? Int == 4, "\(habit)")
    }
}
