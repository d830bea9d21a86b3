import Foundation
import Testing
import StackDayTestSupport

/// `stackday explain` and `GET /v1/habits/{name}/explain` on seed 000's data.
@Suite("explain")
struct ExplainCommandTests {
    static let now = "2026-10-11T22:00:00+09:00"

    @Test("seed 000's water: 10-03 missed with 6 of 8 broke the streak, the current 7 began on 10-04; words and JSON, the CLI's JSON byte for byte the API's")
    func seedWater() throws {
        let cli = try CLIFixture(now: Self.now)
        #expect(try cli.run(["demo"]).status == 0)
        let token = try cli.run(["user", "add", "default"]).stdout.trimmingCharacters(in: .newlines)
        let words = try cli.run(["explain", "물 마시기", "--from", "2026-10-01"])
        #expect(words.status == 0, "\(words.stderr)")
        let lines = words.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "물 마시기: 2026-10-01 … 2026-10-11, current 7 days, longest 7 days", "\(words.stdout)")
        let missed = try #require(lines.first { $0.hasPrefix("2026-10-03") })
        #expect(missed.contains("missed") && missed.contains("missed: 6 of 8 잔; the streak of 2 ended") && missed.contains("✕"), "\(missed)")
        #expect(lines.first { $0.hasPrefix("2026-10-04") }?.contains("← the current streak began") == true, "\(words.stdout)")
        #expect(lines.filter { $0.contains("←") }.count == 1 && lines.filter { $0.contains("✕") }.count == 1)
        #expect(lines.last?.hasPrefix("2026-10-11  pending") == true)
        // Shown from the middle of the streak: no day shown is where it began, and that is said.
        let later = try cli.run(["explain", "물 마시기", "--from", "2026-10-06"]).stdout.split(separator: "\n").map(String.init)
        #expect(!later.contains { $0.contains("←") } && later.last == "(the current streak began before 2026-10-06)", "\(later)")

        let json = try cli.run(["explain", "물 마시기", "--from", "2026-10-01", "--json"]).stdout
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["current"] as? Int == 7 && object["longest"] as? Int == 7 && object["from"] as? String == "2026-10-01")
        let steps = try #require(object["steps"] as? [[String: Any]])
        #expect(steps.count == 11)
        let third = steps[2]
        #expect(third["day"] as? String == "2026-10-03" && third["total"] as? Int == 6 && third["goal"] as? Int == 8)
        #expect((third["outcome"] as? [String: Any])?["status"] as? String == "missed" && (third["outcome"] as? [String: Any])?["met"] as? Bool == false)
        #expect((third["before"] as? [String: Any])?["current"] as? Int == 2 && (third["after"] as? [String: Any])?["current"] as? Int == 0)
        #expect(((third["policies"] as? [String: Any])?["streak"] as? String)?.hasPrefix("strict@") == true)
        let stats = try cli.run(["stats", "물 마시기", "--json"]).stdout
        #expect(stats.contains(#""current":7"#) && stats.contains(#""longest":7"#))

        let server = try ServerProcess(executable: stackday.executable, arguments: ["--db", cli.db, "--now", Self.now, "--policies", cli.folder.path("policies")])
        defer { server.stop() }
        let path = "/v1/habits/" + "물 마시기".addingPercentEncoding(withAllowedCharacters: .alphanumerics)! + "/explain?from=2026-10-01"
        let answer = try server.client.send("GET", path, token: token)
        #expect(answer.status == 200 && answer.body == json, "\(answer.status) \(answer.body.prefix(300))")
        #expect(try server.client.send("GET", path + "&to=2026-09-01", token: token).status == 400)
    }

    @Test("a grace rule says why a miss kept the streak, and why the next one broke it")
    func graceWhy() throws {
        let cli = try CLIFixture(now: Self.now)
        #expect(try cli.run(["habit", "add", "run", "--streak", "grace", "--streak-params", #"{"misses":1,"per":7}"#, "--start", "2026-10-01"]).status == 0)
        for day in ["01", "02", "04", "05", "07", "08"] { #expect(try cli.run(["record", "run", "--on", "2026-10-\(day)"]).status == 0) }
        let json = try cli.run(["explain", "run", "--from", "2026-10-01", "--to", "2026-10-10", "--json"]).stdout
        let steps = try #require((try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["steps"] as? [[String: Any]])
        let why = Dictionary(uniqueKeysWithValues: steps.map { ($0["day"] as? String ?? "", $0["why"] as? String ?? "") })
        #expect(why["2026-10-03"] == "grace: 1 of 1 misses in 7 days used; the streak holds", "\(why)")
        #expect(why["2026-10-06"] == "grace: 2 misses in 7 days, over the 1 forgiven", "\(why)")
        #expect(why["2026-10-04"] == "met: 1 of 1")
        let after = steps.first { $0["day"] as? String == "2026-10-03" }?["after"] as? [String: Any]
        #expect((after?["misses"] as? [Int])?.count == 1 && after?["current"] as? Int == 2, "\(String(describing: after))")
    }
}
