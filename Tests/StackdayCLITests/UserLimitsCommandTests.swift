import Foundation
import Testing
import StackDayTestSupport

/// `stackday user limits NAME`: shown, set and taken away, held by the commands that write, and
/// refused plainly when mistyped, with nothing written.
@Suite("user limits from the command line")
struct UserLimitsCommandTests {
    @Test("a user's own limit is shown, holds for the user's writes, and once taken away the standard one holds again")
    func journey() throws {
        let cli = try CLIFixture()
        #expect(try cli.run(["user", "add", "ana"]).status == 0)
        let set = try cli.run(["user", "limits", "ana", "--set", "habits=2", "--set", "records-per-day=2"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.contains("habits           2        user"), "\(set.stdout)")
        #expect(set.stdout.contains("webhooks         20       standard"), "\(set.stdout)")

        for name in ["tea", "walk"] { #expect(try cli.run(["--user", "ana", "habit", "add", name, "--goal", "5", "--start", "2026-10-01"]).status == 0) }
        let third = try cli.run(["--user", "ana", "habit", "add", "read", "--start", "2026-10-01"])
        #expect(third.status != 0)
        #expect(third.stderr == "Error: over the limit of habits: a user may have at most 2; remove some first\n")
        for _ in 0..<2 { #expect(try cli.run(["--user", "ana", "record", "tea", "1"]).status == 0) }
        let over = try cli.run(["--user", "ana", "record", "tea", "1"])
        #expect(over.status != 0 && over.stderr.contains("records of one habit on one day"))
        let habits = try cli.run(["--user", "ana", "--json", "today"])
        #expect(!habits.stdout.contains("\"read\"") && habits.stdout.contains("\"tea\""))
        #expect(SQLiteShell.run(cli.db, "SELECT count(*) FROM completions") == ["2"])

        let cleared = try cli.run(["--json", "user", "limits", "ana", "--clear", "habits"])
        let limits = try #require(try JSONSerialization.jsonObject(with: Data(cleared.stdout.utf8)) as? [String: Any])
        let rows = try #require(limits["limits"] as? [[String: Any]])
        #expect(rows.map { $0["name"] as? String } == ["scripts", "script-bytes", "habits", "groups", "webhooks", "devices", "pairing-codes", "records-per-day", "sync-page"])
        #expect(rows.first { $0["name"] as? String == "habits" }?["own"] as? Bool == false)
        #expect(rows.first { $0["name"] as? String == "habits" }?["limit"] as? Int == 1000)
        #expect(rows.first { $0["name"] as? String == "records-per-day" }?["own"] as? Bool == true)
        #expect(try cli.run(["--user", "ana", "habit", "add", "read", "--start", "2026-10-01"]).status == 0)
    }

    @Test("a mistyped limit is one line naming it, exit 64, and nothing is written", arguments: [
        (["user", "limits", "ana", "--set", "habits=many"], "Error: invalid value for --set: \"habits=many\": habits must be a whole number from 0 to 1099511627776"),
        (["user", "limits", "ana", "--set", "habit=3"], "Error: invalid value for --set: \"habit=3\": not NAME=N with NAME one of scripts, script-bytes, habits, groups, webhooks, devices, pairing-codes, records-per-day, sync-page"),
        (["user", "limits", "ana", "--clear", "all"], "Error: invalid value for --clear: \"all\" is not a limit; the limits are scripts, script-bytes, habits, groups, webhooks, devices, pairing-codes, records-per-day, sync-page"),
        (["serve", "--limit", "devices=lots"], "Error: invalid value for --limit: \"devices=lots\": devices must be a whole number from 0 to 1099511627776"),
    ])
    func mistyped(_ arguments: [String], _ message: String) throws {
        let cli = try CLIFixture()
        #expect(try cli.run(["user", "add", "ana"]).status == 0)
        _ = try cli.run(["user", "limits", "ana", "--set", "habits=4"])
        let result = try cli.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.split(separator: "\n").first.map(String.init) == message, "\(result.stderr)")
        #expect(SQLiteShell.run(cli.db, "SELECT limits FROM users") == ["habits=4"])
    }
}
