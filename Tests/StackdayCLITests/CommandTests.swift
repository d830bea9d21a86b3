import Foundation
import Testing
import StackDayTestSupport

@Suite("stackday commands")
struct CommandTests {
    @Test("seed 000's report through habit add, record and report week --lang ko")
    func seedReportThroughCommands() throws {
        let cli = try CLIFixture(now: "2026-10-11T22:00:00+09:00")
        for (name, goal, unit) in [("물 마시기", "8", "잔"), ("운동", "30", "분"), ("독서", "20", "쪽")] {
            #expect(try cli.run(["habit", "add", name, "--goal", goal, "--unit", unit, "--start", "2026-10-01"]).status == 0)
        }
        let amounts = [
            "물 마시기": [8, 8, 6, 8, 8, 8, 9, 8, 8, 8, 3], "운동": [30, 0, 45, 30, 0, 25, 30, 0, 35, 30, 30],
            "독서": [10, 25, 30, 20, 0, 15, 20, 22, 0, 20, 20],
        ]
        for (name, values) in amounts {
            for (offset, amount) in values.enumerated() where amount > 0 {
                let day = String(format: "2026-10-%02d", offset + 1)
                let result = try cli.run(["record", name, String(amount), "--on", day])
                #expect(result.status == 0, "\(result.stderr)")
            }
        }
        #expect(try cli.run(["record", "물 마시기", "2", "--at", "2026-10-11T21:40:00+09:00"]).status == 0)
        #expect(try cli.run(["record", "운동", "15", "--at", "2026-10-05T22:30:00Z"]).status == 0)
        let report = try cli.run(["report", "week", "--lang", "ko"])
        #expect(report.status == 0)
        #expect(report.stdout == SeedReport.korean + "\n")
        let stats = try cli.run(["stats", "--json"])
        // Water is still pending today (5 of 8 cups), so today is neither done nor counted as due yet.
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])["habits"] as? [[String: Any]]
        let figures = Dictionary(uniqueKeysWithValues: (rows ?? []).map { row in
            (row["name"] as? String ?? "", ["completedDays", "current", "eligibleDays", "longest"].map { row[$0] as? Int ?? -1 })
        })
        #expect(figures == ["물 마시기": [9, 7, 10, 7], "운동": [8, 3, 11, 3], "독서": [7, 2, 11, 3]], "\(stats.stdout)")
        #expect(rows?.allSatisfy { $0["countsIn"] as? String == "days" && $0["id"] is String && $0["rules"] is [String: Any] } == true)
    }

    @Test("help at every level, in swift-argument-parser's layout", arguments: [
        ["--help"], ["help"], ["-h"], ["habit", "--help"], ["help", "habit"], ["habit", "add", "-h"], ["help", "habit", "add"],
        ["policy", "preview", "--help"], ["report", "week", "--help"], ["record", "--help"],
    ])
    func help(arguments: [String]) throws {
        let result = try runStackday(arguments)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("OVERVIEW: "))
        #expect(result.stdout.contains("\nUSAGE: stackday"))
        #expect(result.stdout.contains("\nOPTIONS:\n"))
        #expect(result.stdout.contains("-h, --help"))
        #expect(result.stderr.isEmpty)
    }

    @Test func helpSections() throws {
        let root = try runStackday(["--help"])
        #expect(root.stdout.contains("\nSUBCOMMANDS:\n  habit"))
        let add = try runStackday(["help", "habit", "add"])
        #expect(add.stdout.contains("\nARGUMENTS:\n  <name>"))
        #expect(add.stdout.contains("USAGE: stackday habit add [<name>] [--goal <n>]"))
        #expect(add.stdout.contains("(default: strict)"))
        // An edit changes only what it names: its options say so, not `add`'s defaults.
        let edit = try runStackday(["help", "habit", "edit"]).stdout
        #expect(edit.contains("--streak <policy>       The streak policy (default: unchanged).") && !edit.contains("(default: strict)"), "\(edit)")
        #expect(try runStackday(["--version"]).stdout == "0.1.0\n")
    }

    @Test("usage errors exit 64 with Error: and a usage line", arguments: [
        (["frobnicate"], "unknown command 'frobnicate'"),
        (["habit", "add"], "missing expected argument '<name>'"),
        (["habit", "add", "x", "--colour", "red"], "unknown option '--colour'"),
        (["record", "water", "--on"], "missing value for --on"),
        (["habit", "frob"], "unknown command 'frob'"),
        (["record", "water", "lots"], "'lots' is not a number"),
        (["record", "water", "--on", "2026-02-30"], "2026-02-30 does not exist"),
        (["today", "--tz", "Mars/Olympus"], "unknown time zone 'Mars/Olympus'"),
        (["today", "--now", "yesterday"], "invalid value for --now"),
        (["today", "--lang", "fr"], "invalid value for --lang"),
        (["habit", "add", "x", "--schedule-params", "{days:"], "invalid value for --schedule-params"),
        (["policy", "simulate", "strict", "--history", "YYX"], "unknown mark at position 3"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        let cli = try CLIFixture()
        let result = try runStackday(arguments + ["--db", cli.db])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("Error: ") == true)
        #expect(lines.first?.contains(message) == true, "\(result.stderr)")
        #expect(lines.dropFirst().first?.hasPrefix("Usage: stackday") == true)
    }

    @Test("bad input: one-line error, exit 1, nothing written", arguments: [
        (["record", "water", "--on", "2026-10-12"], "2026-10-12 is in the future"),
        (["record", "water", "--on", "2026-09-30"], "is before 'water' started"),
        (["record", "old", "--on", "2026-10-06"], "after 'old' was archived"),
        (["record", "water", "0"], "an amount must be"),
        (["record", "water", "-3"], "an amount must be"),
        (["record", "water", "nan"], "an amount must be"),
        (["record", "water", "inf"], "an amount must be"),
        (["record", "nobody"], "no habit named 'nobody'"),
        (["habit", "add", "WATER"], "a habit named 'water' already exists"),
        (["habit", "add", "   "], "a habit name cannot be empty"),
        (["habit", "add", "run", "--schedule", "fortnightly"], "policy fortnightly: no such policy"),
        (["habit", "add", "run", "--schedule", "weekly", "--schedule-params", #"{"days":["funday"]}"#], #"'days' item 1 must be one of "mon", "tue", "wed", "thu", "fri", "sat", "sun", not "funday""#),
        (["habit", "add", "run", "--schedule", "every-n-days", "--schedule-params", #"{"every":0}"#], "'every' must be at least 1, not 0"),
        (["undo", "water", "--on", "2026-10-03"], "nothing recorded on 2026-10-03"),
        (["habit", "add", "run", "--schedule", "broken"], "broken.lua:2"),
        (["skip", "water", "--from", "2026-10-10", "--to", "2026-10-13"], "is in the future"),
        (["habit", "archive", "water", "--on", "2026-09-01"], "cannot archive on 2026-09-01"),
    ])
    func badInput(arguments: [String], message: String) throws {
        let cli = try CLIFixture()
        try cli.writePolicy("broken", "return {\n  isDue = function(day) return day.weekday == end\n}\n")
        #expect(try cli.run(["habit", "add", "water", "--goal", "8", "--unit", "cups", "--start", "2026-10-01"]).status == 0)
        #expect(try cli.run(["habit", "add", "old", "--start", "2026-10-01"]).status == 0)
        #expect(try cli.run(["habit", "archive", "old", "--on", "2026-10-05"]).status == 0)
        let before = try cli.snapshot()
        let result = try cli.run(arguments)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("Error: "))
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(try cli.snapshot() == before)
    }

    @Test("-- ends options, so a name may start with a dash")
    func doubleDash() throws {
        let cli = try CLIFixture()
        #expect(try cli.run(["habit", "add", "--start", "2026-10-01", "--", "-meditate"]).status == 0)
        #expect(try cli.run(["record", "--on", "2026-10-05", "--", "-meditate"]).stdout == "Recorded 1 for '-meditate' on 2026-10-05.\n")
    }

    @Test("policy budgets can be raised or lowered through the environment")
    func budgetsFromEnvironment() throws {
        let cli = try CLIFixture()
        try cli.writePolicy("busy", "return { isDue = function() local n = 0 for i = 1, 300000 do n = n + 1 end return true end }")
        let arguments = ["policy", "preview", "busy", "--from", "2026-10-01", "--to", "2026-10-01", "--policies", cli.folder.path("policies")]
        let low = try runStackday(arguments, environment: ["STACKDAY_POLICY_INSTRUCTIONS": "100000"])
        #expect(low.status == 1)
        #expect(low.stderr.contains("policy busy exceeded its instruction budget"))
        #expect(try runStackday(arguments).status == 0)
        #expect(try runStackday(arguments, environment: ["STACKDAY_POLICY_MEMORY_MB": "lots"]).stderr.contains("STACKDAY_POLICY_MEMORY_MB must be"))
    }

    @Test("habit lifecycle through the command line")
    func lifecycle() throws {
        let cli = try CLIFixture()
        #expect(try cli.run(["habit", "add", "Read", "--start", "2026-10-01"]).stdout.contains("Created 'Read'"))
        #expect(try cli.run(["record", "read", "--on", "2026-10-10"]).status == 0)
        #expect(try cli.run(["habit", "rename", "read", "Reading"]).status == 0)
        #expect(try cli.run(["habit", "edit", "reading", "--schedule", "weekdays"]).status == 0)
        let show = try cli.run(["habit", "show", "Reading", "--json"])
        #expect(show.stdout.contains(#""revision":2,"schedule":{"name":"weekdays","params":{},"sha256":""#), "\(show.stdout)")
        #expect(try cli.run(["habit", "archive", "reading", "--on", "2026-10-10"]).status == 0)
        #expect(try cli.run(["habit", "list", "--active"]).stdout.contains("No habits yet"))
        #expect(try cli.run(["habit", "unarchive", "reading"]).status == 0)
        #expect(try cli.run(["skip", "reading", "--on", "2026-10-09"]).stdout.contains("Skipped 1 day"))
        #expect(try cli.run(["undo", "reading", "--on", "2026-10-10"]).stdout.contains("Removed 1"))
        #expect(try cli.run(["habit", "delete", "reading", "--yes"]).status == 0)
        #expect(try cli.run(["habit", "list", "--json"]).stdout == "{\"habits\":[],\"next\":null}\n")
    }

    @Test("today shows progress bars, states and streaks")
    func today() throws {
        let cli = try CLIFixture()
        try cli.run(["habit", "add", "water", "--goal", "8", "--unit", "cups", "--start", "2026-10-01"])
        try cli.run(["habit", "add", "gym", "--schedule", "weekly", "--schedule-params", #"{"days":["mon"]}"#, "--start", "2026-10-01"])
        try cli.run(["record", "water", "5"])
        let result = try cli.run(["today"])
        #expect(result.stdout.contains("water  ▇▇▇▇▇▁▁▁  5/8 cups  pending  streak 0"))
        #expect(result.stdout.contains("not due"))
        let json = try cli.run(["today", "--json"])
        #expect(json.stdout.contains(#""progress":0.625"#))
    }

    @Test("stats --json has the documented keys")
    func statsJSON() throws {
        let cli = try CLIFixture()
        try cli.run(["habit", "add", "read", "--start", "2026-10-09"])
        for day in ["2026-10-09", "2026-10-10", "2026-10-11"] { try cli.run(["record", "read", "--on", day]) }
        let result = try cli.run(["stats", "--json"])
        #expect(result.stdout.hasPrefix(#"{"groups":[],"habits":[{"#))
        for key in [#""name":"read""#, #""current":3"#, #""longest":3"#, #""completedDays":3"#, #""eligibleDays":3"#, #""rate":1"#, #""score":"#] {
            #expect(result.stdout.contains(key), "missing \(key) in \(result.stdout)")
        }
    }

    @Test("policy preview prints month grids, and JSON due days in order")
    func preview() throws {
        let result = try runStackday(["policy", "preview", "monthly-last-day", "--from", "2024-01-15", "--to", "2024-03-31", "--json"])
        #expect(result.stdout == #"{"due":["2024-01-31","2024-02-29","2024-03-31"],"params":{},"policy":"monthly-last-day"}"# + "\n")
        let grid = try runStackday(["policy", "preview", "weekly", "--params", #"{"days":["tue"]}"#, "--from", "2026-10-01", "--to", "2026-10-31"])
        #expect(grid.stdout.contains("October 2026\n Mo Tu We Th Fr Sa Su\n           ·  ·  ·  ·\n  ·  6  ·  ·  ·  ·  ·"))
        #expect(grid.stdout.hasSuffix("4 due days from 2026-10-01 to 2026-10-31.\n"))
    }

    @Test("policy simulate prints the streak day by day")
    func simulate() throws {
        let result = try runStackday(["policy", "simulate", "grace", "--history", "YYNYY", "--from", "2026-10-01", "--json"])
        #expect(result.status == 0)
        #expect(result.stdout.contains(#""current":4,"from":"2026-10-01","longest":4,"policy":"grace""#), "\(result.stdout)")
        let text = try runStackday(["policy", "simulate", "strict", "--history", "YN", "--from", "2026-10-01"])
        #expect(text.stdout.hasSuffix("2026-10-02  missed     0        1\ncurrent 0, longest 1, after the history 2026-10-01 … 2026-10-02\n"))
        // Without --from, the history ends yesterday (or on --ending).
        let ending = try runStackday(["--now", "2026-10-11T12:00:00Z", "--tz", "+00:00", "policy", "simulate", "strict", "--history", "YNY", "--json"])
        #expect(ending.stdout.contains(#""from":"2026-10-08""#) && ending.stdout.contains(#""to":"2026-10-10""#), "\(ending.stdout)")
        let named = try runStackday(["policy", "simulate", "strict", "--history", "YY", "--ending", "2026-10-05"])
        #expect(named.stdout.hasPrefix("DAY         OUTCOME    CURRENT  LONGEST\n2026-10-04  completed"), "\(named.stdout)")
        #expect(named.stdout.hasSuffix("after the history 2026-10-04 … 2026-10-05\n"))
        let both = try runStackday(["policy", "simulate", "strict", "--history", "YY", "--from", "2026-10-01", "--ending", "2026-10-05"])
        #expect(both.status == 64 && both.stderr.hasPrefix("Error: --from and --ending cannot be used together"))
    }

    @Test("policy check passes built-ins and names failing examples")
    func policyCheck() throws {
        let cli = try CLIFixture()
        #expect(try cli.run(["policy", "check", "monthly-day"]).status == 0)
        let file = cli.folder.path("policies/wrong.lua")
        try "return {\n  examples = {\n    { day = \"2026-10-05\", due = false },\n  },\n  isDue = function() return true end,\n}\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let result = try cli.run(["policy", "check", file])
        #expect(result.status == 1)
        #expect(result.stdout.contains("FAIL example 1 (line 3): isDue(2026-10-05) returned true, expected false"))
        #expect(result.stderr == "Error: 1 check failed in wrong\n")
        let list = try cli.run(["policy", "list"])
        #expect(list.stdout.contains("wrong"))
        #expect(list.stdout.split(separator: "\n").contains { $0.hasPrefix("monthly-nth-weekday") && $0.contains("built-in") && $0.contains("schedule") })
    }

    @Test("a user policy overrides a built-in; calendar plain when piped")
    func userPolicyAndCalendar() throws {
        let cli = try CLIFixture()
        try cli.writePolicy("daily", "return { isDue = function(day) return day.weekday ~= 7 end }")
        try cli.run(["habit", "add", "walk", "--start", "2026-10-05"])
        try cli.run(["record", "walk", "--on", "2026-10-05"])
        let calendar = try cli.run(["calendar", "walk"])
        #expect(calendar.status == 0)
        #expect(!calendar.stdout.contains("\u{1B}["))
        #expect(calendar.stdout.contains("Mon █"))
        let report = try cli.run(["report", "week"])
        #expect(report.stdout.contains("walk | ● ○ ○ ○ ○ ○ · |"))
    }

    @Test("report html is one self-contained page with an SVG heatmap per habit")
    func html() throws {
        let cli = try CLIFixture()
        try cli.run(["habit", "add", "a <b>", "--start", "2026-10-01"])
        try cli.run(["record", "a <b>", "--on", "2026-10-02"])
        let out = cli.folder.path("report.html")
        #expect(try cli.run(["report", "html", "--out", out]).status == 0)
        let page = try String(contentsOfFile: out, encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(page.contains("<svg"))
        #expect(page.contains("a &lt;b&gt;"))
        #expect(page.contains("<html lang=\"en\">") && page.contains("<h2>This week</h2>"))
        // In Korean the page says so, and its headings are Korean.
        let korean = cli.folder.path("report-ko.html")
        #expect(try cli.run(["report", "html", "--lang", "ko", "--out", korean]).status == 0)
        let ko = try String(contentsOfFile: korean, encoding: .utf8)
        #expect(ko.contains("<html lang=\"ko\">") && ko.contains("<h2>이번 주</h2>") && ko.contains("<th>습관</th>"), "\(ko.prefix(600))")
        // The only address on the page is the SVG namespace: nothing is fetched.
        #expect(!page.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "").contains("http"))
        // 2026-10-02 was done: its cell has the darkest shade and a title naming the day.
        #expect(page.contains("fill=\"#216e39\"><title>2026-10-02: 1 (met)</title>"))
        #expect(page.contains("fill=\"#dfe3e8\"><title>2026-10-03: 0 (missed)</title>"))
        #expect(!page.contains("<script src") && !page.contains("<link"))
    }

    @Test("the demo writes a fresh database and prints the report")
    func demo() throws {
        let cli = try CLIFixture()
        let result = try runStackday(["demo", "--db", cli.db])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("습관 3개, 기록 30건 (\(cli.db))\n\n주간 보고서: 10/05(월) ~ 10/11(일)\n"), "the file it wrote is named: \(result.stdout)")
        let again = try runStackday(["demo", "--db", cli.db])
        #expect(again.status == 1)
        #expect(again.stderr.contains("already holds habits"))
    }
}
