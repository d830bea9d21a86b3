import Foundation
import Testing
import StackDayTestSupport

/// Destructive commands ask on a terminal, take `--yes` from a script, and refuse otherwise;
/// and the small honest answers of `habit edit`, `policy check` and `policy preview`.
@Suite("asking first, and honest small answers")
struct ConfirmationTests {
    func onTerminal(_ cli: CLIFixture, _ command: [String], answer: String) throws -> Subprocess.Result {
        try cli.onTerminal(command, answer: answer)
    }

    @Test("habit delete and user remove: refused without a terminal or --yes, asked on one, done with --yes", arguments: [
        (["habit", "delete", "gym"], "habit delete deletes 'gym' with its history only when asked on a terminal, or with --yes"),
        (["user", "remove", "ana"], "user remove deletes 'ana' with all of its data only when asked on a terminal, or with --yes"),
    ])
    func asks(command: [String], refusal: String) throws {
        let cli = try CLIFixture()
        #expect(try cli.run(["habit", "add", "gym"]).status == 0)
        #expect(try cli.run(["record", "gym"]).status == 0)
        #expect(try cli.run(["user", "add", "ana", "--tz", "+09:00"]).status == 0)
        let before = try cli.snapshot()
        let users = try cli.run(["user", "list", "--json"]).stdout

        let refused = try cli.run(command)
        #expect(refused.status == 64)
        #expect(refused.stderr.hasPrefix("Error: \(refusal)\n"), "\(refused.stderr)")
        #expect(try cli.snapshot() == before && cli.run(["user", "list", "--json"]).stdout == users, "nothing changed")

        let declined = try onTerminal(cli, command, answer: "n")
        #expect(declined.stdout.contains("[y/N]") && declined.stdout.contains("not confirmed; nothing was changed"), "\(declined.stdout)")
        #expect(try cli.snapshot() == before && cli.run(["user", "list", "--json"]).stdout == users, "nothing changed")

        let accepted = try onTerminal(cli, command, answer: "y")
        #expect(accepted.stdout.contains("Deleted 'gym'") || accepted.stdout.contains("Removed user 'ana'"), "\(accepted.stdout)")
        if command[0] == "habit" {
            #expect(try cli.run(["habit", "list", "--json"]).stdout == "{\"habits\":[],\"next\":null}\n")
        } else {
            #expect(!(try cli.run(["user", "list", "--json"]).stdout.contains(#""name":"ana""#)))
        }
    }

    @Test("--yes answers for a script; a missing habit is named before anything is asked")
    func yes() throws {
        let cli = try CLIFixture()
        #expect(try cli.run(["habit", "add", "gym"]).status == 0)
        let missing = try cli.run(["habit", "delete", "gm"])
        #expect(missing.status == 1 && missing.stderr == "Error: no habit named 'gm'; did you mean 'gym'?\n", "\(missing.stderr)")
        #expect(try cli.run(["habit", "delete", "gym", "--yes"]).stdout == "Deleted 'gym' with its completions and skips.\n")
        #expect(try cli.run(["habit", "list", "--json"]).stdout == "{\"habits\":[],\"next\":null}\n")
    }

    @Test("habit edit with nothing to change is a usage error naming what it takes")
    func emptyEdit() throws {
        let cli = try CLIFixture()
        #expect(try cli.run(["habit", "add", "gym"]).status == 0)
        let before = try cli.snapshot()
        let edit = try cli.run(["habit", "edit", "gym"])
        #expect(edit.status == 64)
        #expect(edit.stderr.hasPrefix("Error: nothing to change: give at least one of --goal, --unit, --start, --schedule, --progress, --streak, --remind, --color-tag, --step, --question, --description\n"), "\(edit.stderr)")
        #expect(try cli.snapshot() == before)
    }

    @Test("policy check counts the examples it ran, apart from loading in the sandbox")
    func checkCounts() throws {
        let cli = try CLIFixture()
        try cli.writePolicy("mine", VersionedPolicyTests.resetting.replacingOccurrences(
            of: "examples = { { history = \"YNY\", current = 1, longest = 1 } },",
            with: "examples = { { history = \"YNY\", current = 1, longest = 1 }, { history = \"YY\", current = 2, longest = 2 } },"))
        let check = try cli.run(["policy", "check", "mine"])
        #expect(check.status == 0)
        #expect(check.stdout.hasSuffix("roles streak; loads in the sandbox; 2 of 2 examples passed\n"), "\(check.stdout)")
        let json = try jsonObject(try cli.run(["policy", "check", "mine", "--json"]).stdout)
        #expect(json["examples"] as? Int == 2 && json["passed"] as? Int == 2 && json["loaded"] as? Bool == true)
    }

    @Test("policy preview shows this month and the next two unless told otherwise")
    func previewDefaults() throws {
        let cli = try CLIFixture(now: "2026-11-15T10:00:00+09:00")
        let preview = try cli.run(["policy", "preview", "weekdays"])
        #expect(preview.status == 0, "\(preview.stderr)")
        #expect(preview.stdout.hasSuffix("65 due days from 2026-11-01 to 2027-01-31.\n"), "\(preview.stdout)")
        let from = try cli.run(["policy", "preview", "weekdays", "--from", "2026-12-10"])
        #expect(from.stdout.hasSuffix("from 2026-12-10 to 2027-02-28.\n"), "\(from.stdout)")
    }
}

/// `unskip` takes skips back, on the command line and over the API; nothing to take back is an error that writes nothing.
@Suite("unskip")
struct UnskipTests {
    @Test("a day, then a range: the days count again; a day without a skip is refused")
    func unskip() throws {
        let cli = try CLIFixture()
        #expect(try cli.run(["habit", "add", "gym", "--start", "2026-10-01"]).status == 0)
        #expect(try cli.run(["skip", "gym", "--from", "2026-10-03", "--to", "2026-10-05"]).status == 0)
        let stats = { try jsonObject(try cli.run(["stats", "gym", "--json"]).stdout)["habits"] as? [[String: Any]] }
        let skipped = try #require(try stats()?.first?["eligibleDays"] as? Int)
        let one = try cli.run(["unskip", "gym", "--on", "2026-10-04"])
        #expect(one.stdout == "Took back 1 skip of 'gym' (2026-10-04 … 2026-10-04).\n", "\(one.stderr)")
        #expect(try stats()?.first?["eligibleDays"] as? Int == skipped + 1)
        let range = try cli.run(["unskip", "gym", "--from", "2026-10-01", "--to", "2026-10-10", "--json"])
        #expect(range.stdout == #"{"habit":"gym","unskipped":["2026-10-03","2026-10-05"]}"# + "\n")
        let before = try cli.snapshot()
        let none = try cli.run(["unskip", "gym", "--on", "2026-10-04"])
        #expect(none.status == 1 && none.stderr == "Error: 'gym' has no skip on 2026-10-04\n", "\(none.stderr)")
        #expect(try cli.snapshot() == before)
    }

    @Test("DELETE /v1/habits/{name}/skips answers the days taken back")
    func api() throws {
        let cli = try CLIFixture()
        let token = try cli.run(["user", "add", "ana"]).stdout.trimmingCharacters(in: .newlines)
        #expect(try cli.run(["--user", "ana", "habit", "add", "gym", "--start", "2026-10-01"]).status == 0)
        #expect(try cli.run(["--user", "ana", "skip", "gym", "--on", "2026-10-03"]).status == 0)
        let server = try ServerProcess(executable: stackday.executable, arguments: ["--db", cli.db, "--now", cli.now])
        defer { _ = server.stop() }
        let answer = try server.client.send("DELETE", "/v1/habits/gym/skips?on=2026-10-03", token: token)
        #expect(answer.status == 200 && answer.body.trimmingCharacters(in: .newlines) == #"{"habit":"gym","unskipped":["2026-10-03"]}"#, "\(answer.status) \(answer.body)")
        let again = try server.client.send("DELETE", "/v1/habits/gym/skips?on=2026-10-03", token: token)
        #expect(again.status == 400 && again.body.contains("has no skip on 2026-10-03"), "\(again.status) \(again.body)")
    }
}

/// `log` lists a habit's records, as a table and as JSON, over a range of days.
@Suite("log")
struct LogTests {
    @Test("skipping a day already skipped says so and changes nothing; taking back a skip that is not there is an error")
    func skipTwice() throws {
        let cli = try CLIFixture()
        #expect(try cli.run(["habit", "add", "water", "--start", "2026-10-01"]).status == 0)
        #expect(try cli.run(["skip", "water", "--on", "2026-10-05"]).stdout == "Skipped 1 day of 'water' (2026-10-05 … 2026-10-05).\n")
        let again = try cli.run(["skip", "water", "--on", "2026-10-05"])
        #expect(again.status == 0 && again.stdout == "'water' is already skipped on 2026-10-05; nothing changed.\n", "\(again.stdout)")
        #expect(try cli.run(["unskip", "water", "--on", "2026-10-05"]).status == 0)
        let none = try cli.run(["unskip", "water", "--on", "2026-10-05"])
        #expect(none.status == 1 && none.stderr.contains("has no skip on 2026-10-05"))
    }

    @Test("a record on a day the schedule does not ask for is kept and said; on a due day nothing more is said")
    func notDue() throws {
        let cli = try CLIFixture()
        #expect(try cli.run(["habit", "add", "gym", "--schedule", "weekly", "--schedule-params", #"{"days":["mon","thu"]}"#, "--start", "2026-10-01"]).status == 0)
        #expect(try cli.run(["record", "gym", "--on", "2026-10-08"]).stdout == "Recorded 1 for 'gym' on 2026-10-08.\n")
        let friday = try cli.run(["record", "gym", "--on", "2026-10-09"])
        #expect(friday.status == 0 && friday.stdout == "Recorded 1 for 'gym' on 2026-10-09.\n2026-10-09 is not a due day for 'gym' by its schedule; the record is kept.\n",
                "\(friday.stdout)")
        #expect(try cli.run(["log", "gym", "--json"]).stdout.contains("2026-10-09"))
    }

    @Test("every record of the range, with its day, amount and when it was recorded (in the user's time zone)")
    func log() throws {
        let cli = try CLIFixture()
        #expect(try cli.run(["habit", "add", "water", "--unit", "cups", "--start", "2026-10-01"]).status == 0)
        #expect(try cli.run(["record", "water", "2", "--on", "2026-10-02"]).status == 0)
        #expect(try cli.run(["record", "water", "3", "--on", "2026-10-05"]).status == 0)
        let table = try cli.run(["log", "water"])
        #expect(table.status == 0)
        #expect(table.stdout == """
            DAY         AMOUNT  RECORDED AT
            2026-10-02  2 cups  2026-10-11 20:00 +09:00
            2026-10-05  3 cups  2026-10-11 20:00 +09:00

            """, "\(table.stdout)")
        let json = try jsonObject(try cli.run(["log", "water", "--from", "2026-10-03", "--json"]).stdout)
        let records = try #require(json["records"] as? [[String: Any]])
        #expect(records.count == 1 && records[0]["day"] as? String == "2026-10-05" && records[0]["amount"] as? Int == 3)
        #expect(json["from"] as? String == "2026-10-03" && json["to"] as? String == "2026-10-11" && json["unit"] as? String == "cups")
        #expect(try cli.run(["log", "water", "--from", "2026-10-06", "--to", "2026-10-07"]).stdout == "No records of 'water' from 2026-10-06 to 2026-10-07.\n")
        // A note adds the NOTE column; its line break is shown as ⏎, and the JSON keeps it.
        #expect(try cli.run(["record", "water", "1", "--on", "2026-10-06", "--note", "after the run\n2nd glass"]).stdout
                == "Recorded 1 for 'water' on 2026-10-06, with a note.\n")
        #expect(try cli.run(["log", "water", "--from", "2026-10-05"]).stdout == """
            DAY         AMOUNT  RECORDED AT              NOTE
            2026-10-05  3 cups  2026-10-11 20:00 +09:00
            2026-10-06  1 cups  2026-10-11 20:00 +09:00  after the run ⏎ 2nd glass

            """)
        let noted = try jsonObject(try cli.run(["log", "water", "--from", "2026-10-06", "--json"]).stdout)
        #expect((noted["records"] as? [[String: Any]])?.first?["note"] as? String == "after the run\n2nd glass")
        let long = try cli.run(["record", "water", "1", "--on", "2026-10-07", "--note", String(repeating: "가", count: 1001)])
        #expect(long.status == 1 && long.stderr == "Error: a note can have at most 1000 characters (this one has 1001)\n", "\(long.stderr)")
        #expect(try cli.run(["log", "water", "--from", "2026-10-07"]).stdout.hasPrefix("No records"))
        let backwards = try cli.run(["log", "water", "--from", "2026-10-07", "--to", "2026-10-06"])
        #expect(backwards.status == 64 && backwards.stderr.hasPrefix("Error: --from 2026-10-07 is after --to 2026-10-06"), "\(backwards.stderr)")
    }
}
