import Foundation
import Testing
import StackDayTestSupport

/// `stackday sync` as a subprocess against a real `stackday serve`, two device files and one
/// server file.
@Suite("stackday sync")
struct SyncCommandTests {
    static let now = "2026-10-11T22:00:00+09:00"

    func json(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    /// A `stackday serve` on a store of its own with one user, and that user's token.
    static func serve() throws -> (ServerProcess, String) {
        let server = try CLIFixture(now: now)
        let token = try server.run(["user", "add", "ana"]).stdout.trimmingCharacters(in: .newlines)
        let serve = try ServerProcess(executable: stackday.executable, arguments: ["--db", server.db, "--now", now, "--tz", "+09:00"])
        serve.keepAlive = server
        return (serve, token)
    }

    @Test("--pair exchanges a code for the device's own token, kept in its store: later syncs need neither --token nor --server")
    func pairing() throws {
        let (serve, token) = try Self.serve()
        defer { serve.stop() }
        let url = "http://127.0.0.1:\(serve.port)"
        let made = try serve.client.send("POST", "/v1/devices/pairing", token: token, body: nil)
        #expect(made.status == 201)
        let code = try #require(try json(made.body)["code"] as? String)
        let laptop = try CLIFixture(now: Self.now)
        #expect(try laptop.run(["habit", "add", "water", "--goal", "8", "--start", "2026-10-01"]).status == 0)
        #expect(try laptop.run(["sync", "--server", url, "--pair", code, "--token", token]).status == 64, "--pair and --token exclude each other")
        #expect(try laptop.run(["sync", "--server", url, "--pair", "12345"]).stderr.contains("is not a pairing code"))

        let paired = try laptop.run(["sync", "--server", url, "--pair", code, "--device-name", "laptop"])
        #expect(paired.status == 0, "\(paired.stderr)")
        #expect(paired.stdout.hasPrefix("Paired this device with \(url).\nSynced with \(url): pushed "))
        #expect(!paired.stdout.contains("sd_") && !paired.stderr.contains("sd_"), "the device's token is never printed")
        let again = try laptop.run(["sync", "--json"])
        #expect(again.status == 0 && again.stdout.contains("\"pushed\":0"), "\(again.stderr)")
        let devices = try serve.client.send("GET", "/v1/devices", token: token, body: nil)
        #expect(devices.body.contains("\"name\":\"laptop\""))

        // The code was used: another device gets pairing_failed, and nothing is kept.
        let phone = try CLIFixture(now: Self.now)
        let refused = try phone.run(["--json", "sync", "--server", url, "--pair", code])
        #expect(refused.status != 0 && refused.stderr.contains("\"pairing_failed\""), "\(refused.stdout) \(refused.stderr)")
        #expect(try phone.run(["sync"]).stderr.contains("sync needs --server URL"))
    }

    @Test("a first sync pushes the history; a second moves nothing; one new record is one change each way; both devices end equal")
    func roundTrip() throws {
        let (serve, token) = try Self.serve()
        defer { serve.stop() }
        let url = "http://127.0.0.1:\(serve.port)"
        let phone = try CLIFixture(now: Self.now)
        let laptop = try CLIFixture(now: Self.now)
        #expect(try phone.run(["habit", "add", "water", "--goal", "8", "--unit", "cups", "--start", "2026-10-01"]).status == 0)
        for day in 1...10 {
            #expect(try phone.run(["record", "water", "\(day % 4 + 1)", "--on", String(format: "2026-10-%02d", day)]).status == 0)
        }
        let sync = ["sync", "--server", url, "--token", token, "--json"]

        let first = try phone.run(sync)
        #expect(first.status == 0, "\(first.stderr)")
        let pushed = try json(first.stdout)
        #expect(pushed["pulled"] as? Int == 0)
        #expect((pushed["pushed"] as? Int ?? 0) >= 12, "a habit, its revision and ten records: \(first.stdout)")
        #expect(try json(phone.run(sync).stdout) as NSDictionary == ["pushed": 0, "pulled": 0], "a second sync moves nothing")
        // The pushed history's figures are in the server's cache before its first read.
        let serverDB = try #require(serve.keepAlive as? CLIFixture).db
        #expect(SQLiteShell.run(serverDB, "SELECT count(*) FROM evaluation_cache WHERE owner = 'ana' AND summary IS NOT NULL") == ["1"])

        let pulled = try laptop.run(sync)
        #expect(pulled.status == 0, "\(pulled.stderr)")
        #expect(try json(pulled.stdout)["pulled"] as? Int == pushed["pushed"] as? Int)
        #expect(try laptop.run(["export"]).stdout == phone.run(["export"]).stdout)

        #expect(try laptop.run(["record", "water", "3", "--on", "2026-10-11", "--note", "from the laptop"]).status == 0)
        #expect(try json(laptop.run(sync).stdout) as NSDictionary == ["pushed": 1, "pulled": 0], "one new record pushes one change")
        #expect(try json(phone.run(sync).stdout) as NSDictionary == ["pushed": 0, "pulled": 1])
        #expect(try phone.run(["log", "water", "--json"]).stdout.contains("from the laptop"))
        #expect(try phone.run(["stats", "--json"]).stdout == laptop.run(["stats", "--json"]).stdout)
        #expect(try phone.run(["--no-cache", "stats", "--json"]).stdout == laptop.run(["stats", "--json"]).stdout)
        // The server's user sees the same habit through the API.
        let today = try serve.client.send("GET", "/v1/stats", token: token, body: nil)
        #expect(today.status == 200 && today.body.contains("water"))

        let human = try phone.run(["sync", "--server", url, "--token", token])
        #expect(human.stdout == "Synced with \(url): pushed 0 changes, pulled 0 changes.\n")
    }

    @Test("a wrong token, a bad URL and an unreachable server: one line, a non-zero exit, nothing written")
    func failures() throws {
        let (serve, _) = try Self.serve()
        defer { serve.stop() }
        let phone = try CLIFixture(now: Self.now)
        #expect(try phone.run(["habit", "add", "water"]).status == 0)
        let before = try phone.snapshot()

        let refused = try phone.run(["sync", "--server", "http://127.0.0.1:\(serve.port)", "--token", "sd_wrong"])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("Error: the server refused the sync (401 unauthorized)"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1)

        let badURL = try phone.run(["sync", "--server", "ftp://example", "--token", "t"])
        #expect(badURL.status == 64)
        #expect(badURL.stderr.hasPrefix("Error: invalid value for --server: 'ftp://example' (use https://HOST[:PORT], or http://HOST[:PORT] on a trusted network)"), "\(badURL.stderr)")

        let missing = try phone.run(["sync", "--server", "http://127.0.0.1:\(serve.port)"], environment: ["STACKDAY_TOKEN": ""])
        #expect(missing.status == 64 && missing.stderr.contains("--token"))

        let closed = try phone.run(["sync", "--server", "http://127.0.0.1:9", "--token", "t", "--json"])
        #expect(closed.status == 1)
        #expect(closed.stderr.contains(#""code":"server_unreachable""#), "\(closed.stderr)")
        #expect(try phone.snapshot() == before)
    }

    @Test("a copy of a synced store heals by itself: it takes an id of its own, says so once, and both copies end equal")
    func copiedStore() throws {
        let (serve, token) = try Self.serve()
        defer { serve.stop() }
        let sync = ["sync", "--server", "http://127.0.0.1:\(serve.port)", "--token", token]
        let phone = try CLIFixture(now: Self.now)
        #expect(try phone.run(["habit", "add", "water", "--start", "2026-10-01"]).status == 0)
        #expect(try phone.run(sync).status == 0)
        let copy = try CLIFixture(now: Self.now)
        #expect(SQLiteShell.run(phone.db, "VACUUM INTO '\(copy.db)'") == [])
        #expect(try phone.run(["record", "water", "--on", "2026-10-02"]).status == 0)
        #expect(try phone.run(sync).status == 0)
        #expect(try copy.run(["record", "water", "--on", "2026-10-03"]).status == 0)
        let healed = try copy.run(sync)
        #expect(healed.status == 0, "\(healed.stderr)")
        #expect(healed.stdout.contains("This store was a copy of another that syncs under the same device id"), "\(healed.stdout)")
        // The phone keeps its id and is not bothered; the next syncs are plain.
        let phoneAfter = try phone.run(sync)
        #expect(phoneAfter.status == 0 && !phoneAfter.stdout.contains("copy"), "\(phoneAfter.stdout) \(phoneAfter.stderr)")
        let again = try copy.run(sync + ["--json"])
        #expect(again.status == 0 && !again.stdout.contains("copied"), "\(again.stdout)")
        #expect(try phone.run(["export"]).stdout == copy.run(["export"]).stdout)
        for fixture in [phone, copy] {
            let log = try fixture.run(["log", "water", "--json"]).stdout
            #expect(log.contains("2026-10-02") && log.contains("2026-10-03"), "\(log)")
        }
        // `--new-device` still takes a new id on request, and changes nothing held.
        #expect(try copy.run(sync + ["--new-device"]).status == 0)
        #expect(try phone.run(sync).status == 0)
        #expect(try phone.run(["export"]).stdout == copy.run(["export"]).stdout)
    }

    @Test("a long sync shows its progress on a terminal (a bar, the count of the changes it pushes), nothing in a pipe")
    func progress() throws {
        let (serve, token) = try Self.serve()
        defer { serve.stop() }
        let url = "http://127.0.0.1:\(serve.port)"
        let phone = try CLIFixture(now: Self.now)
        let file = phone.folder.path("big.csv")
        try ProgressTests.archive(habits: 4, days: 1_500).write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try phone.run(["import", file]).status == 0)
        let piped = try phone.run(["sync", "--server", url, "--token", token])
        #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped.stderr)")

        let laptop = try CLIFixture(now: Self.now)
        #expect(try laptop.run(["habit", "add", "walk"]).status == 0)
        let shown = try laptop.onTerminal(["sync", "--server", url, "--token", token])
        #expect(shown.status == 0, "\(shown.stdout)")
        #expect(shown.stdout.contains("pushing ▕"), "\(shown.stdout)")
        #expect(shown.stdout.contains("pulling "), "\(shown.stdout)")
        // Its habit, revision and the three built-in scripts; 6,000 records, 4 habits, their revisions and the scripts.
        #expect(shown.stdout.contains("Synced with \(url): pushed 5 changes, pulled 6011 changes."), "\(shown.stdout)")
    }
}
