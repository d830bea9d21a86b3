import Foundation
import Testing
import StackDayTestSupport

/// Weeks that begin on Sunday on the command line: `--week-starts`, `user set --week-starts`, and
/// what follows them (quota weeks, the calendar, the weekly report). The fixture's today is
/// Sunday 2026-10-11.
@Suite("week start on the command line")
struct WeekStartCommandTests {
    @Test("--week-starts sun: a new weekly quota counts Sunday weeks, the calendar starts its rows on Sunday, the report runs Sunday to Saturday")
    func sundayWeeks() throws {
        let cli = try CLIFixture()
        let sunday = ["--week-starts", "sun"]
        #expect(try cli.run(sunday + ["habit", "add", "stretch", "--schedule", "3 times a week", "--start", "2026-10-04"]).status == 0)
        let shown = try cli.run(["habit", "show", "stretch", "--json"]).stdout
        #expect(shown.contains(#""params":{"times":3,"weekStart":"sun"}"#), "\(shown)")
        for done in ["2026-10-04", "2026-10-05", "2026-10-06"] { try cli.run(["record", "stretch", "--on", done]) }
        // The Sunday week 10-04 … 10-10 is met whatever the display's week start.
        let stats = try cli.run(["stats", "--json"]).stdout
        #expect(stats.contains(#""completedDays":1"#) && stats.contains(#""countsIn":"weeks""#), "\(stats)")
        let calendar = try cli.run(sunday + ["calendar", "stretch", "--color", "never"]).stdout.split(separator: "\n")
        #expect(calendar.count > 2 && calendar[1].hasPrefix("Sun") && calendar[7].hasPrefix("Sat"), "\(calendar)")
        #expect(try cli.run(["calendar", "stretch", "--color", "never"]).stdout.split(separator: "\n")[1].hasPrefix("Mon"))
        let report = try cli.run(sunday + ["report", "week", "--json"]).stdout
        #expect(report.hasPrefix(#"{"first":"2026-10-11","#) && report.contains(#""last":"2026-10-17""#) && report.contains(#""monday":"2026-10-11""#), "\(report)")
        #expect(try cli.run(sunday + ["report", "week"]).stdout.contains("Days: Sun Mon Tue Wed Thu Fri Sat"))
        let bad = try cli.run(["--week-starts", "fri", "today"])
        #expect(bad.status == 64 && bad.stderr.hasPrefix("Error: invalid value for --week-starts: 'fri' (use mon or sun)"), "\(bad.stderr)")
    }

    @Test("user set --week-starts sun is a rule change from the first Sunday week: history before it keeps its figures, a daily habit is left alone")
    func userSet() throws {
        let cli = try CLIFixture(user: "ana")
        #expect(try cli.run(["user", "add", "ana"]).status == 0)
        #expect(try cli.run(["habit", "add", "stretch", "--schedule", "3 times a week", "--start", "2026-09-28"]).status == 0)
        #expect(try cli.run(["habit", "add", "read", "--start", "2026-09-28"]).status == 0)
        for done in ["2026-09-28", "2026-09-30", "2026-10-02", "2026-10-05", "2026-10-09", "2026-10-11"] { try cli.run(["record", "stretch", "--on", done]) }
        cli.now = "2026-10-10T20:00:00+09:00"
        let before = try cli.run(["stats", "--json"]).stdout
        cli.now = "2026-10-11T20:00:00+09:00"
        let set = try cli.run(["user", "set", "ana", "--week-starts", "sun"])
        #expect(set.status == 0 && set.stdout == "Updated 'ana': weeks start on Sunday.\n", "\(set)")
        let stretch = try cli.run(["habit", "show", "stretch", "--json"]).stdout
        #expect(stretch.contains(#""revisions":2"#) && stretch.contains(#""from":"2026-10-11""#) && stretch.contains(#""weekStart":"sun""#), "\(stretch)")
        #expect(try cli.run(["habit", "show", "read", "--json"]).stdout.contains(#""revisions":1"#))
        cli.now = "2026-10-10T20:00:00+09:00"
        #expect(try cli.run(["stats", "--json"]).stdout == before, "the days before the change are judged as they were")
        cli.now = "2026-10-11T20:00:00+09:00"
        // Stored, it is the user's: the calendar follows it without --week-starts.
        #expect(try cli.run(["calendar", "stretch", "--color", "never"]).stdout.split(separator: "\n")[1].hasPrefix("Sun"))
        // Again: nothing to revise. Nothing given, or no such user: refused, nothing written.
        #expect(try cli.run(["user", "set", "ana", "--week-starts", "sun"]).status == 0)
        #expect(try cli.run(["habit", "show", "stretch", "--json"]).stdout.contains(#""revisions":2"#))
        let snapshot = try cli.snapshot()
        let nothing = try cli.run(["user", "set", "ana"])
        #expect(nothing.status == 64 && nothing.stderr.hasPrefix("Error: nothing to change: give --week-starts or --language"))
        let nobody = try cli.run(["user", "set", "bo", "--week-starts", "mon"])
        #expect(nobody.status == 1 && nobody.stderr.hasPrefix("Error: no user named 'bo'"), "\(nobody.stderr)")
        #expect(try cli.snapshot() == snapshot)
    }
}
