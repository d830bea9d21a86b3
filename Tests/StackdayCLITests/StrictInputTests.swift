import Foundation
import Testing
import StackDayTestSupport

/// Runs a shell command line (for redirections the subprocess helper does not do), in an English locale.
func shell(_ command: String) throws -> Subprocess.Result {
    try Subprocess(executable: URL(fileURLWithPath: "/bin/sh")).run(["-c", command], environment: ["LC_ALL": "", "LANG": "C.UTF-8"])
}

func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

@Suite("strict input, standalone binary, locale and display width", .serialized)
struct StrictInputTests {
    @Test("the binary copied to an empty folder carries its built-in policies")
    func standaloneBinary() throws {
        let folder = try TemporaryFolder()
        let copy = folder.path("stackday")
        // Copied by another process: a write descriptor open in this one could be inherited by a
        // child another test forks meanwhile, and the copy would then be "busy" when started.
        let cp = try Subprocess(executable: URL(fileURLWithPath: "/bin/cp")).run([stackday.executable.path, copy])
        #expect(cp.status == 0, "\(cp.stderr)")
        let home = folder.path("home")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        func run(_ arguments: [String]) throws -> Subprocess.Result {
            try Subprocess(executable: URL(fileURLWithPath: copy)).run(
                ["--db", folder.path("db.sqlite"), "--now", "2026-10-11T20:00:00+09:00", "--tz", "+09:00"] + arguments,
                environment: ["HOME": home, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"], inheritEnvironment: false, currentDirectory: folder.url
            )
        }
        let add = try run(["habit", "add", "gym", "--schedule", "weekly", "--schedule-params", #"{"days":["sun"]}"#, "--streak", "grace"])
        #expect(add.status == 0, "\(add.stderr)")
        let today = try run(["today"])
        #expect(today.status == 0, "\(today.stderr)")
        #expect(today.stdout.contains("gym  ▁▁▁▁▁▁▁▁  0/1  pending  streak 0"), "\(today.stdout)")
        let list = try run(["policy", "list"])
        #expect(list.status == 0)
        for name in ["daily", "weekly", "grace", "rrule", "times-per-week"] {
            #expect(list.stdout.contains("\n\(name) "), "\(name) missing: \(list.stdout)")
        }
        let show = try run(["policy", "show", "daily"])
        #expect(show.stdout.contains("file         built-in:daily.lua"))
        let digest = try #require(try jsonObject(try run(["policy", "show", "daily", "--json"]).stdout)["sha256"] as? String)
        #expect(show.stdout.contains("sha256       \(digest)"))
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Policies/daily.lua"), encoding: .utf8)
        #expect(show.stdout.hasSuffix("\n" + source), "policy show prints the source in use")
    }

    @Test("a user file overrides a built-in, and policy show prints the file in use")
    func overrideShown() throws {
        let cli = try CLIFixture()
        let source = "-- mine\nreturn { isDue = function(day) return day.weekday == 1 end }\n"
        try cli.writePolicy("daily", source)
        let show = try cli.run(["policy", "show", "daily"])
        #expect(show.stdout.hasSuffix("\n" + source))
        #expect(show.stdout.contains(cli.folder.path("policies/daily.lua")))
    }

    @Test("an rrule that never occurs is refused quickly, saying why", arguments: [
        ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30;COUNT=1", "the rule never occurs: February has no 30th day"),
        ("FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=30", "the rule never occurs: February has no 30th day"),
        ("FREQ=MONTHLY;BYMONTH=4,6;BYMONTHDAY=31", "no month in BYMONTH has a day in BYMONTHDAY"),
        ("FREQ=DAILY;BYMONTH=11;BYMONTHDAY=-31", "November has no 31st day from the end"),
        ("FREQ=MONTHLY;BYDAY=MO;BYMONTHDAY=1,2,3,4,5,6,7;BYSETPOS=2", "no day matches all of its BY parts together"),
        ("FREQ=YEARLY;INTERVAL=4;BYMONTH=2;BYMONTHDAY=29", "never occurs with INTERVAL=4 from its start 2025-01-01"),
        ("FREQ=WEEKLY;UNTIL=20241231", "never occurs between its start 2025-01-01 and UNTIL"),
    ])
    func rruleNeverOccurs(rule: String, message: String) throws {
        let cli = try CLIFixture()
        #expect(try cli.run(["habit", "add", "ok", "--start", "2025-01-01"]).status == 0)
        let params = #"{"rule":"\#(rule)"}"#
        let commands = [
            ["habit", "add", "x", "--start", "2025-01-01", "--schedule", "rrule", "--schedule-params", params],
            ["habit", "edit", "ok", "--schedule", "rrule", "--schedule-params", params],
            ["policy", "preview", "rrule", "--params", params, "--start", "2025-01-01", "--from", "2026-01-01", "--to", "2026-12-31"],
        ]
        for command in commands {
            let started = Date()
            let result = try cli.run(command)
            #expect(Date().timeIntervalSince(started) < 1.0, "\(command) took too long")
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.contains(message), "\(command): \(result.stderr)")
        }
        #expect(try cli.run(["habit", "list", "--json"]).stdout.contains(#""schedule":{"name":"daily""#))
        // policy check of a file whose example uses the rule names the reason in that example.
        let file = cli.folder.path("policies/never.lua")
        let rrule = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Policies/rrule.lua"), encoding: .utf8)
        let patched = rrule.replacingOccurrences(of: "  examples = {\n", with: "  examples = {\n    { day = \"2026-10-30\", due = true, start = \"2025-01-01\", params = { rule = \"\(rule)\" } },\n")
        try patched.write(toFile: file, atomically: true, encoding: .utf8)
        let check = try cli.run(["policy", "check", file])
        #expect(check.status == 1)
        #expect(check.stdout.contains("FAIL example 1") && check.stdout.contains(message), "\(check.stdout)")
    }

    @Test("tables align by terminal width with Korean, Japanese and emoji names")
    func displayWidth() throws {
        let cli = try CLIFixture()
        let names = ["물 마시기", "読書", "🏃 run", "e\u{301}tude", "plain"]
        for name in names { #expect(try cli.run(["habit", "add", name, "--start", "2026-10-01"]).status == 0) }
        try cli.run(["record", "読書", "--on", "2026-10-11"])
        for command in [["habit", "list"], ["today"], ["stats"]] {
            let lines = try cli.run(command).stdout.split(separator: "\n").map(String.init).filter { line in
                names.contains { line.hasPrefix($0) } || line.hasPrefix("NAME") || line.hasPrefix("HABIT")
            }
            #expect(lines.count >= names.count, "\(command): \(lines)")
            let starts = Set(secondColumnStarts(lines, width: cells))
            #expect(starts.count == 1, "\(command) columns start at \(starts): \(lines.joined(separator: "\n"))")
        }
    }

    @Test("--lang follows LC_ALL, then LC_MESSAGES, then LANG", arguments: [
        (["LANG": "ko_KR.UTF-8"], true),
        (["LANG": "en_US.UTF-8"], false),
        (["LC_ALL": "en_US.UTF-8", "LANG": "ko_KR.UTF-8"], false),
        (["LC_MESSAGES": "ko_KR.UTF-8", "LANG": "en_US.UTF-8"], true),
        (["LC_ALL": "ko", "LC_MESSAGES": "C"], true),
        (["LANG": ""], false),
    ])
    func locale(environment: [String: String], korean: Bool) throws {
        let cli = try CLIFixture()
        try cli.run(["habit", "add", "walk", "--start", "2026-10-05"])
        let report = try cli.run(["report", "week"], environment: environment)
        #expect(report.stdout.hasPrefix(korean ? "주간 보고서" : "Weekly report"), "\(environment): \(report.stdout)")
        let explicit = try cli.run(["report", "week", "--lang", "en"], environment: environment)
        #expect(explicit.stdout.hasPrefix("Weekly report"))
    }

    @Test("instants, offsets and day starts are parsed strictly", arguments: [
        ["record", "w", "--at", "2026-10-05T08:00:00+09:00junk"],
        ["record", "w", "--at", "2026-10-05T25:00:00Z"],
        ["record", "w", "--at", "2026-10-05T08:60:00Z"],
        ["record", "w", "--at", "2026-10-05 08:00:00Z"],
        ["record", "w", "--at", "2026-10-05T08:00:00"],
        ["record", "w", "--at", "20260-10-05T08:00:00Z"],
        ["record", "w", "--at", "2026-10-05T08:00:00+24:00"],
        ["today", "--now", "2026-02-30T12:00:00Z"],
        ["today", "--now", "2026-10-05T08:00:00.Z"],
        ["today", "--tz", "+-1:00"],
        ["today", "--tz", "++1:00"],
        ["today", "--tz", "+15:00"],
        ["today", "--day-starts-at", "+3:00"],
        ["today", "--day-starts-at", "3:00"],
        ["--now", "9999-12-31T20:00:00Z", "--tz", "+14:00", "habit", "add", "x"],
        ["--now", "0001-01-01T02:00:00Z", "--tz", "-12:00", "habit", "add", "x"],
        ["--db", "", "today"],
        ["--db", "--db", "today"],
    ])
    func strictValues(arguments: [String]) throws {
        let cli = try CLIFixture()
        #expect(try cli.run(["habit", "add", "w", "--start", "2026-10-01"]).status == 0)
        let before = try cli.databaseBytes()
        let result = try runStackday(["--db", cli.db, "--policies", cli.folder.path("policies")] + arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: "))
        #expect(try cli.databaseBytes() == before)
        #expect(!FileManager.default.fileExists(atPath: "--db"))
    }

    @Test("valid instants: fractions, lowercase z, offsets", arguments: [
        ("2026-10-05T08:00:00.123456789+09:00", "2026-10-05"),
        ("2026-10-04T23:30:00z", "2026-10-05"),
        ("2026-10-05T23:59:59-05:00", "2026-10-06"),
    ])
    func validInstants(at: String, day: String) throws {
        let cli = try CLIFixture()
        try cli.run(["habit", "add", "w", "--goal", "5", "--start", "2026-10-01"])
        let result = try cli.run(["record", "w", "--at", at, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""day":"\#(day)""#), "\(result.stdout)")
    }

    @Test("a failed command leaves no new database file behind")
    func noDatabaseOnFailure() throws {
        let folder = try TemporaryFolder()
        let db = folder.path("new.sqlite")
        let result = try runStackday(["--db", db, "record", "missing"])
        #expect(result.status == 1)
        #expect(result.stderr == "Error: no habit named 'missing'\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test("a full or closed stdout is an error message and exit 1, not a crash")
    func fullStdout() throws {
        let cli = try CLIFixture()
        try cli.run(["habit", "add", "w", "--start", "2026-10-01"])
        let base = "\(quoted(stackday.executable.path)) --db \(quoted(cli.db)) --now 2026-10-11T20:00:00+09:00 --tz +09:00"
        let full = try shell("\(base) record w --on 2026-10-05 > /dev/full")
        #expect(full.status == 1)
        #expect(full.stderr == "Error: recorded, but cannot write to standard output: No space left on device (the change is stored; do not run the command again)\n", "\(full.stderr)")
        // More than a pipe holds, into a reader that stops after one byte: the write fails with EPIPE.
        let status = cli.folder.path("status")
        let closed = try shell("(\(base) policy preview daily --from 1990-01-01 --to 2030-12-31; echo $? > \(quoted(status))) | head -c 1 >/dev/null")
        #expect(closed.stderr == "Error: cannot write to standard output: Broken pipe\n", "\(closed.stderr)")
        #expect(try String(contentsOfFile: status, encoding: .utf8) == "1\n")
        // The record before the full stdout is kept: only the message could not be printed.
        #expect(try cli.run(["stats", "--json"]).stdout.contains(#""completedDays":1"#))
    }

    @Test("export --out writes through a symlink, streams into a FIFO, and reports a device error")
    func exportTargets() throws {
        let cli = try CLIFixture()
        try cli.run(["habit", "add", "w", "--start", "2026-10-01"])
        let expected = try cli.run(["export"]).stdout
        let real = cli.folder.path("real.json")
        try "old".write(toFile: real, atomically: true, encoding: .utf8)
        let link = cli.folder.path("link.json")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        #expect(try cli.run(["export", "--out", link]).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == real)
        #expect(try String(contentsOfFile: real, encoding: .utf8) == expected)

        let fifo = cli.folder.path("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = try shell("cat \(quoted(fifo)) > \(quoted(cli.folder.path("from-fifo"))) & \(quoted(stackday.executable.path)) --db \(quoted(cli.db)) --now 2026-10-11T20:00:00+09:00 export --out \(quoted(fifo)); status=$?; wait; exit $status")
        #expect(reader.status == 0, "\(reader.stderr)")
        #expect(try String(contentsOfFile: cli.folder.path("from-fifo"), encoding: .utf8) == expected)
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO, "the FIFO stays a FIFO")

        let device = try cli.run(["export", "--out", "/dev/full"])
        #expect(device.status == 1)
        #expect(device.stderr == "Error: cannot write /dev/full: No space left on device\n")
        #expect(lstat("/dev/full", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
    }

    @Test("policy simulate folds the rule once, however long the history")
    func longSimulation() throws {
        // 40,000 marks: a fold per step (as before) would walk 800 million outcomes.
        let history = String(repeating: "YYN-.YYYYP", count: 4_000)
        let started = Date()
        let result = try runStackday(["policy", "simulate", "strict", "--history", history, "--from", "1900-01-01", "--json"])
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(result.status == 0, "\(result.stderr)")
        // Each block: Y Y, N resets, - and . leave it, Y Y Y Y, P leaves it at 4; the next
        // block's Y Y reach 6 before its N. The last block ends at 4.
        let object = try jsonObject(result.stdout)
        #expect(object["current"] as? Int == 4)
        #expect(object["longest"] as? Int == 6)
        #expect((object["steps"] as? [Any])?.count == 40_000)
    }

    @Test("long error messages are cut and say how much was cut")
    func longMessages() throws {
        let cli = try CLIFixture()
        try cli.writePolicy("loud", "return { isDue = function() error(string.rep('x', 5000), 0) end }")
        let result = try cli.run(["policy", "preview", "loud", "--from", "2026-10-01", "--to", "2026-10-01"])
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.count < 1_200)
        #expect(result.stderr.contains("(cut from 5000 bytes)"), "\(result.stderr)")
    }
}

@Suite("calendar of several habits")
struct CalendarTests {
    @Test("one name keeps its JSON shape; several are listed in the order named; an unknown one is an error")
    func several() throws {
        let cli = try CLIFixture()
        try cli.run(["habit", "add", "walk", "--start", "2026-10-05"])
        try cli.run(["habit", "add", "read", "--start", "2026-10-12"])
        try cli.run(["record", "walk", "--on", "2026-10-06"])
        let one = try jsonObject(try cli.run(["calendar", "walk", "--json"]).stdout)
        #expect(one["habit"] as? String == "walk" && (one["days"] as? [Any])?.count == 7)
        let both = try cli.run(["calendar", "read", "walk"])
        #expect(both.status == 0)
        #expect(both.stdout.hasPrefix("read: no tracked days up to 2026-10-11 (it starts on 2026-10-12)\n\n"), "\(both.stdout)")
        #expect(both.stdout.contains("Tue █") && both.stdout.hasSuffix("walk: 2026-10-05 … 2026-10-11\n█ met  ▒ partly done  x missed  - skipped  · not due  ? pending\n"))
        let unknown = try cli.run(["calendar", "walk", "nope"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "Error: no habit named 'nope'\n")
        #expect(try runStackday(["calendar", "--help"]).stdout.contains("USAGE: stackday calendar <name> ..."))
    }
}
