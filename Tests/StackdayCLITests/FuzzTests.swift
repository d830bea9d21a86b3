import Foundation
import Testing
import StackDayTestSupport

/// The command line's contract, whatever it is given: exit 0, 1 or 64; on failure a message on
/// one line (plus the usage lines for 64), cut at a readable length, and the database unchanged;
/// never a hang or a signal.
func checkContract(_ run: Subprocess.Result, before: Data?, after: Data?, what: String) {
    #expect(!run.timedOut, "hang: \(what)")
    #expect(!run.signaled, "signal \(run.status): \(what)\n\(run.stderr)")
    #expect([0, 1, 64].contains(run.status), "exit \(run.status): \(what)\n\(run.stderr)")
    guard run.status != 0 else { return }
    let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    if run.stderr.hasPrefix(#"{"error":"#) {
        // With --json a failure is one line, the API's error body: a code and a message.
        #expect(what.contains("--json"), "a JSON error without --json: \(what)")
        #expect(lines.count == 1, "\(what): \(run.stderr)")
        let object = (try? JSONSerialization.jsonObject(with: Data(run.stderr.utf8))) as? [String: Any]
        let error = object?["error"] as? [String: Any]
        #expect(error?["code"] is String && error?["message"] is String, "\(what): \(run.stderr)")
    } else {
        #expect(lines.first?.hasPrefix("Error: ") == true, "\(what): \(run.stderr)")
        #expect(lines.count == (run.status == 64 ? 3 : 1), "\(what): \(run.stderr)")
    }
    #expect((lines.first?.count ?? 0) <= 1_100, "\(what): a message of \(lines.first?.count ?? 0) characters")
    #expect(before == after, "the database changed: \(what)")
}

@Suite("fuzz: command lines, import files and policies keep the contract", .serialized)
struct FuzzTests {
    static let words = [
        "habit", "add", "list", "show", "edit", "archive", "unarchive", "delete", "rename", "record", "undo", "skip", "today",
        "stats", "report", "week", "html", "calendar", "policy", "preview", "simulate", "check", "export", "import", "help",
        "--goal", "--unit", "--start", "--on", "--at", "--from", "--to", "--schedule", "--schedule-params", "--streak",
        "--streak-params", "--progress", "--json", "--lang", "--tz", "--now", "--day-starts-at", "--history", "--params",
        "--week-of", "--format", "--out", "--", "-h", "--db",
        "water", "WATER", "독서", "🏃", "", " ", "x\ny", "-x", "2026-10-05", "2026-02-30", "0001-01-01", "9999-12-31", "10000-01-01",
        "2026-10-05T08:00:00+09:00", "2026-10-05T08:00:00+09:00junk", "9999-12-31T23:59:59-12:00", "0", "-1", "nan", "inf", "1e400",
        "1e12", "0.0005", "3", "8", "weekly", "rrule", "grace", "times-per-week", "daily", "nope", #"{"days":["mon"]}"#, "{", "[]",
        #"{"times":99}"#, #"{"rule":"FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30"}"#, "Asia/Seoul", "+14:00", "-12:00", "++1:00", "03:00",
        "YYN-Y", "YYQ", "ko", "en", "fr", "csv", "json", "loop", "/dev/full", "/nonexistent/x.json",
    ]

    @Test("seeded random command lines", arguments: [UInt64(11), 12, 13])
    func commandLines(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let cli = try CLIFixture()
        #expect(try cli.run(["habit", "add", "water", "--goal", "8", "--start", "2026-10-01"]).status == 0)
        #expect(try cli.run(["record", "water", "5", "--on", "2026-10-05"]).status == 0)
        for _ in 0..<70 {
            let count = Int.random(in: 1...6, using: &generator)
            let words = (0..<count).map { _ in Self.words.randomElement(using: &generator)! }
            let arguments = ["--db", cli.db, "--policies", cli.folder.path("policies"), "--tz", "+09:00", "--now", cli.now] + words
            let before = try cli.databaseBytes()
            let run = try runStackday(arguments, timeout: 15)
            checkContract(run, before: before, after: try cli.databaseBytes(), what: "stackday \(words)")
        }
    }

    @Test("mutated import files", arguments: [UInt64(21), 22])
    func importFiles(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let source = try CLIFixture()
        try source.run(["habit", "add", "물 마시기", "--goal", "2.5", "--unit", "l", "--start", "2026-10-01"])
        try source.run(["habit", "add", "gym", "--schedule", "times-per-week", "--schedule-params", #"{"times":2}"#, "--streak", "grace", "--start", "2026-10-01"])
        for day in ["2026-10-02", "2026-10-03", "2026-10-05"] { try source.run(["record", "물 마시기", "1.25", "--on", day]) }
        try source.run(["record", "gym", "--on", "2026-10-06"])
        try source.run(["skip", "gym", "--on", "2026-10-07"])
        let target = try CLIFixture()
        try target.run(["habit", "add", "existing", "--start", "2026-10-01"])
        for format in ["csv", "json"] {
            let original = Array(try source.run(["export", "--format", format]).stdout.utf8)
            for attempt in 0..<25 {
                var bytes = original
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    let index = Int.random(in: 0..<bytes.count, using: &generator)
                    switch Int.random(in: 0..<5, using: &generator) {
                    case 0: bytes[index] = UInt8.random(in: 0...255, using: &generator)
                    case 1: bytes.remove(at: index)
                    case 2: bytes.insert(contentsOf: "\",;{}[]\n9e99-".utf8.shuffled(using: &generator).prefix(2), at: index)
                    case 3: bytes.insert(contentsOf: bytes[index..<min(bytes.count, index + 40)], at: index)
                    default: bytes[index] = "0123456789".utf8.randomElement(using: &generator)!
                    }
                }
                let file = target.folder.path("mutated-\(attempt).\(format)")
                try Data(bytes).write(to: URL(fileURLWithPath: file))
                let before = try target.databaseBytes()
                let run = try runStackday(["--db", target.db, "--tz", "+09:00", "--now", target.now, "import", file], timeout: 15)
                if run.status == 0 {
                    // What an import accepted must read back: undo it by starting over.
                    #expect(try target.run(["export", "--format", "json"]).status == 0)
                    try FileManager.default.removeItem(atPath: target.db)
                    try target.run(["habit", "add", "existing", "--start", "2026-10-01"])
                } else {
                    checkContract(run, before: before, after: try target.databaseBytes(), what: "import of mutated \(format) #\(attempt)")
                }
            }
        }
    }

    static let fragments = [
        "return true", "return false", "return 'yes'", "return nil", "return 0/0", "return day.weekday == 1",
        "while true do end", "local t = {} for i = 1, 1e9 do t[i] = i end", "error('boom')", "error({code = 1})",
        "return string.rep('x', 1e10)", "return string.rep('', 1e15)", "table.move({}, 1, 1e15, 2)",
        "return ('a'):rep(50):find(('a*'):rep(20) .. 'b')", "x = 1", "return io.open('/etc/passwd')", "return os.time()",
        "return require('os')", "return load('\\27Lua')", "return #tostring({}) > 0", "return day.nope.x",
        "setmetatable({}, {__gc = function() end})", "return math.random()", "return (pcall(error))",
    ]

    @Test("generated policies", arguments: [UInt64(31)])
    func policies(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let cli = try CLIFixture()
        try cli.run(["habit", "add", "water", "--start", "2026-10-01"])
        for index in 0..<20 {
            let body = (0..<Int.random(in: 1...2, using: &generator)).map { _ in Self.fragments.randomElement(using: &generator)! }.joined(separator: "\n")
            let role = ["isDue = function(day, params, habit)", "progress = function(total, goal, params, day)",
                        "streak = function(state, day, outcome, params)"].randomElement(using: &generator)!
            let atLoad = Bool.random(using: &generator)
            let source = atLoad ? "\(body)\nreturn { \(role) return true end }\n" : "return {\n  \(role)\n\(body)\n  end,\n}\n"
            let name = "gen\(index)"
            try cli.writePolicy(name, source)
            let roleOption = role.hasPrefix("isDue") ? "--schedule" : role.hasPrefix("progress") ? "--progress" : "--streak"
            let commands = [["policy", "check", name], ["habit", "add", "h\(index)", roleOption, name, "--start", "2026-10-01"], ["today"],
                            ["report", "week"], ["policy", "list"]]
            for command in commands {
                let before = try cli.databaseBytes()
                let run = try runStackday(["--db", cli.db, "--policies", cli.folder.path("policies"), "--tz", "+09:00", "--now", cli.now] + command, timeout: 15)
                checkContract(run, before: before, after: try cli.databaseBytes(), what: "\(command) with \(name):\n\(source)")
            }
        }
    }
}
