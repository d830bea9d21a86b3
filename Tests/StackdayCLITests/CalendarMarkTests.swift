import Foundation
import Testing
import StackDayTestSupport

/// The terminal calendar tells the six states apart by their marks, with a legend, and colours
/// them only where asked: `--color`, a terminal, `NO_COLOR`.
@Suite("calendar marks and colour")
struct CalendarMarkTests {
    /// A weekday habit with a goal of 2 from Monday 2026-09-28 to today, Friday 2026-10-09.
    func fixture() throws -> CLIFixture {
        let cli = try CLIFixture(now: "2026-10-09T20:00:00+09:00")
        #expect(try cli.run(["habit", "add", "water", "--goal", "2", "--schedule", "weekdays", "--start", "2026-09-28"]).status == 0)
        #expect(try cli.run(["record", "water", "2", "--on", "2026-09-28"]).status == 0)   // met
        #expect(try cli.run(["record", "water", "1", "--on", "2026-09-29"]).status == 0)   // partly done
        #expect(try cli.run(["skip", "water", "--on", "2026-10-01"]).status == 0)          // skipped
        return cli                                                                       // the 30th missed, the weekend not due, today pending
    }

    @Test("six states, six marks, and a legend")
    func marks() throws {
        let cli = try fixture()
        let result = try cli.run(["calendar", "water", "--from", "2026-09-28", "--color", "never"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("Mon █ x "), "\(result.stdout)")
        #expect(lines.contains("Tue ▒ x "), "\(result.stdout)")
        #expect(lines.contains("Wed x x "), "\(result.stdout)")
        #expect(lines.contains("Thu - x "), "\(result.stdout)")
        #expect(lines.contains("Fri x ? "), "\(result.stdout)")
        #expect(lines.contains("Sat ·   ") && lines.contains("Sun ·   "), "\(result.stdout)")
        #expect(lines.last == "█ met  ▒ partly done  x missed  - skipped  · not due  ? pending")
        #expect(!result.stdout.contains("\u{1B}["))
    }

    /// Runs `calendar` on a pseudo-terminal (`script`) with `environment`.
    func onTerminal(_ cli: CLIFixture, _ extra: [String], environment: [String: String] = [:]) throws -> String {
        let line = ([stackday.executable.path, "--db", cli.db, "--tz", "+09:00", "--now", cli.now, "calendar", "water"] + extra)
            .map { "'" + $0 + "'" }.joined(separator: " ")
        return try Subprocess(executable: URL(fileURLWithPath: "/usr/bin/script"))
            .run(["-qec", line, "/dev/null"], environment: environment, timeout: 30).stdout
    }

    @Test("colour: on a terminal, not in a pipe, not under NO_COLOR; --color decides over both", arguments: [
        // An empty NO_COLOR counts as unset (no-color.org), whatever this process was given.
        ([], ["NO_COLOR": ""], true), (["--color", "never"], ["NO_COLOR": ""], false), ([], ["NO_COLOR": "1"], false),
        (["--color", "always"], ["NO_COLOR": "1"], true),
    ] as [([String], [String: String], Bool)])
    func colour(options: [String], environment: [String: String], coloured: Bool) throws {
        let cli = try fixture()
        let output = try onTerminal(cli, options, environment: environment)
        #expect(output.contains("\u{1B}[38;5;") == coloured, "\(options) \(environment): \(output)")
        #expect(output.contains("█"), "the marks stay when colour is on: \(output)")
    }

    @Test("in a pipe, colour only with --color always; a wrong choice is a usage error")
    func pipe() throws {
        let cli = try fixture()
        #expect(!(try cli.run(["calendar", "water"]).stdout.contains("\u{1B}[")))
        #expect(try cli.run(["calendar", "water", "--color", "always"]).stdout.contains("\u{1B}[38;5;40m█"))
        let wrong = try cli.run(["calendar", "water", "--color", "sometimes"])
        #expect(wrong.status == 64 && wrong.stderr.hasPrefix("Error: invalid value for --color: 'sometimes' (use auto, always or never)"))
    }

    @Test("a limit's calendar legend says within the limit and over the limit where a goal's says met and missed, in both languages")
    func limitLegend() throws {
        let cli = try CLIFixture()
        #expect(try cli.run(["habit", "add", "coffee", "--unit", "cups", "--progress", "at-most", "--progress-params", #"{"limit":2}"#, "--start", "2026-10-01"]).status == 0)
        #expect(try cli.run(["record", "coffee", "3", "--on", "2026-10-06"]).status == 0)
        let english = try cli.run(["calendar", "coffee", "--from", "2026-10-01", "--to", "2026-10-11"]).stdout
        #expect(english.contains("█ within the limit  ▒ partly done  x over the limit"), "\(english)")
        #expect(try cli.run(["--lang", "ko", "calendar", "coffee", "--from", "2026-10-01", "--to", "2026-10-11"]).stdout.contains("█ 한도 안"))
        #expect(try cli.run(["habit", "add", "water", "--goal", "2", "--start", "2026-10-01"]).status == 0)
        #expect(try cli.run(["calendar", "water", "--from", "2026-10-01", "--to", "2026-10-11"]).stdout.contains("█ met  ▒ partly done  x missed"))
    }
}
