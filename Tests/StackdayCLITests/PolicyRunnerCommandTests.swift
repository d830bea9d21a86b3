import Foundation
import Testing
import StackDayTestSupport

/// `--isolate-policies`: the same answers from runner processes as from the command's own
/// process, and `policy-runner` refuses to be run by hand.
@Suite("policy runners from the command line")
struct PolicyRunnerCommandTests {
    /// Habits that reach every kind of call: a quota schedule, a grace streak rule with
    /// parameters, a user's own schedule from the policy folder, a rule change, skips.
    func fixture() throws -> CLIFixture {
        let cli = try CLIFixture()
        try cli.writePolicy("odd-days", """
        local memo = {}
        return {
          description = "Odd days of the month",
          isDue = function(day) memo[day.day] = true return day.day % 2 == 1 end,
        }
        """)
        let commands: [[String]] = [
            ["habit", "add", "gym", "--schedule", "times-per-week", "--schedule-params", #"{"times":3}"#, "--start", "2026-09-01"],
            ["habit", "add", "water", "--goal", "8", "--unit", "cups", "--streak", "grace", "--start", "2026-09-01"],
            ["habit", "add", "odd", "--schedule", "odd-days", "--start", "2026-09-01"],
            ["record", "gym", "--on", "2026-10-06"], ["record", "gym", "--on", "2026-10-08"],
            ["record", "water", "5", "--on", "2026-10-09"], ["record", "water", "8", "--on", "2026-10-10"],
            ["record", "odd", "--on", "2026-10-09"], ["skip", "odd", "--on", "2026-10-07"],
            ["habit", "edit", "water", "--goal", "6", "--from", "2026-10-05"],
        ]
        for command in commands {
            let result = try cli.run(command)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        return cli
    }

    @Test("every read answers the same from runners as in process", arguments: [
        ["--json", "today"], ["--json", "stats"], ["report", "week"], ["calendar", "water"], ["--json", "habit", "show", "gym"],
        ["explain", "water", "--from", "2026-10-01"],
    ])
    func parity(_ command: [String]) throws {
        let cli = try fixture()
        let inProcess = try cli.run(["--no-cache"] + command)
        let isolated = try cli.run(["--no-cache", "--isolate-policies"] + command)
        #expect(inProcess.status == 0, "\(inProcess.stderr)")
        #expect(isolated.status == inProcess.status)
        #expect(isolated.stdout == inProcess.stdout)
        // With the evaluation cache: written by runners, read back by either.
        let cached = try cli.run(["--isolate-policies"] + command)
        #expect(cached.stdout == inProcess.stdout)
        #expect(try cli.run(command).stdout == inProcess.stdout)
    }

    @Test("a policy's error from a runner names its file and line as in process")
    func errors() throws {
        let cli = try CLIFixture()
        try cli.writePolicy("broken", "return { isDue = function(day) if day.day == 9 then error('no ninth') end return true end }")
        #expect(try cli.run(["habit", "add", "b", "--schedule", "broken", "--start", "2026-10-01"]).status == 0)
        let inProcess = try cli.run(["--no-cache", "--json", "today"])
        let isolated = try cli.run(["--no-cache", "--isolate-policies", "--json", "today"])
        #expect(inProcess.stdout.contains("no ninth") && inProcess.stdout.contains("broken.lua"), "\(inProcess.stdout)")
        #expect(isolated.stdout == inProcess.stdout)
    }

    @Test("a server whose executable was replaced or removed (an upgrade) still starts runners of its own version")
    func executableRemoved() throws {
        let cli = try fixture()
        let token = try cli.run(["user", "add", "ana"]).stdout.trimmingCharacters(in: .newlines)
        let copy = cli.folder.path("stackday-old")
        try FileManager.default.copyItem(atPath: stackday.executable.path, toPath: copy)
        let server = try ServerProcess(executable: URL(fileURLWithPath: copy),
                                       arguments: ["--db", cli.db, "--now", cli.now, "--tz", "+09:00", "--policies", cli.folder.path("policies"), "--no-cache"],
                                       serveArguments: ["--threads", "2"])
        defer { server.stop() }
        try FileManager.default.removeItem(atPath: copy)
        #expect(try cli.run(["--user", "ana", "habit", "add", "water", "--start", "2026-10-01"]).status == 0)
        let today = try server.client.send("GET", "/v1/today", token: token)
        #expect(today.status == 200 && today.body.contains("water") && !today.body.contains("\"error\""), "\(today.status) \(today.body.prefix(300))")
    }

    @Test("policy-runner run by hand says what it is for and exits 64")
    func byHand() throws {
        let result = try runStackday(["policy-runner"], environment: [:], input: nil)
        #expect(result.status == 64)
        #expect(result.stderr.contains("started by a server"))
    }
}
