import Foundation
import Testing
import StackDayTestSupport

/// The journey the command line exists for, walked as an author walks it: write a rule, test it,
/// install it, find it in the list, try it on a real history, apply it from a day, ask why,
/// take it back, and find every figure as it was; another user never sees it.
@Suite("policy journey on the command line")
struct PolicyJourneyTests {
    /// A reading habit with the journey's history, in a store of its own.
    func reading(user: String? = nil) throws -> CLIFixture {
        let cli = try CLIFixture(now: PolicyJourney.now, user: user)
        #expect(try cli.run(["habit", "add", "read", "--start", PolicyJourney.start]).status == 0)
        for day in PolicyJourney.metDays { try cli.run(["record", "read", "--on", day]) }
        return cli
    }

    func figures(_ cli: CLIFixture) throws -> (table: String, json: String) {
        let table = try cli.run(["stats", "read"]).stdout
        var row = try #require((try jsonObject(try cli.run(["stats", "read", "--json"]).stdout)["habits"] as? [[String: Any]])?.first)
        row["rules"] = nil
        return (table, String(decoding: try JSONSerialization.data(withJSONObject: row, options: [.sortedKeys]), as: UTF8.self))
    }

    @Test("write, test, install, list, simulate, apply from a day, explain, roll back: the figures return exactly")
    func journey() throws {
        let cli = try reading()
        let before = try figures(cli)
        #expect(before.table.contains("read"), "\(before.table)")

        // Write: a starter, then the author's own rule in its place, beside its test file.
        let file = cli.folder.path("work/two.lua")
        #expect(try cli.run(["policy", "new", "two", "--role", "streak", "--out", file]).status == 0)
        try PolicyJourney.twoMisses.write(toFile: file, atomically: true, encoding: .utf8)
        try "return {\n  { name = \"three met\", history = \"YYY\", current = 3, longest = 3 },\n}\n"
            .write(toFile: cli.folder.path("work/two_test.lua"), atomically: true, encoding: .utf8)

        // Test it like code.
        let tested = try cli.run(["policy", "test", file, "--coverage"])
        #expect(tested.status == 0, "\(tested.stdout)\(tested.stderr)")
        #expect(tested.stdout.hasPrefix("PASS two (") && tested.stdout.contains("4 cases"), "\(tested.stdout)")
        #expect(tested.stdout.contains("coverage: "), "\(tested.stdout)")

        // Install it, and find it in the list where the name resolves to it.
        let installed = try cli.run(["policy", "install", file])
        #expect(installed.stdout.hasPrefix("installed two sha256:"), "\(installed.stderr)")
        let listed = try cli.run(["policy", "list", "--json"])
        let entries = try #require(try jsonObject(listed.stdout)["policies"] as? [[String: Any]])
        let two = try #require(entries.first { $0["name"] as? String == "two" })
        #expect(two["source"] as? String == "installed" && two["inUse"] as? Bool == true && (two["shortHash"] as? String)?.count == 12)

        // Try it on the real history from a day, with what it traced; nothing is written.
        let simulated = try cli.run(["policy", "simulate", "two", "--habit", "read", "--from", PolicyJourney.from, "--trace", "--json"])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let simulation = try jsonObject(simulated.stdout)
        let proposed = try #require(simulation["proposed"] as? [String: Any])
        let trace = try #require(simulation["trace"] as? [[String: Any]])
        #expect(trace.contains { $0["text"] as? String == "forgiven 2026-11-05" && $0["day"] as? String == "2026-11-05" && $0["line"] as? Int == 22 },
                "\(trace)")
        #expect(try figures(cli).json == before.json)

        // Apply it from the day: the figures are the simulation's.
        #expect(try cli.run(["habit", "edit", "read", "--streak", "two", "--from", PolicyJourney.from]).status == 0)
        let applied = try #require((try jsonObject(try cli.run(["stats", "read", "--json"]).stdout)["habits"] as? [[String: Any]])?.first)
        #expect(applied["current"] as? Int == proposed["current"] as? Int && applied["longest"] as? Int == proposed["longest"] as? Int)
        #expect(applied["current"] as? Int != (try jsonObject(before.json))["current"] as? Int, "the rule changed nothing: \(applied)")

        // Why: the fold names the rule, and the trace says which misses it forgave.
        let explained = try cli.run(["explain", "read", "--from", "2026-11-04", "--to", "2026-11-06", "--trace"])
        #expect(explained.stdout.contains("2026-11-05  missed") && explained.stdout.contains("trace two.lua"), "\(explained.stdout)")

        // Take it back: every figure as before, and the history says so.
        let rolled = try cli.run(["policy", "rollback", "read"])
        #expect(rolled.status == 0 && rolled.stdout.contains("took back revision 2"), "\(rolled.stdout)\(rolled.stderr)")
        let after = try figures(cli)
        #expect(after.table == before.table)
        #expect(after.json == before.json)
        let history = try cli.run(["policy", "history", "read"]).stdout
        #expect(history.contains("(taken back by revision 3)") && history.contains("(takes back revision 2)"), "\(history)")

        // Another user of the same store never sees the script.
        let bob = CLIFixture(sharing: cli, user: "bob")
        #expect(try bob.run(["habit", "add", "walk", "--start", PolicyJourney.start]).status == 0)
        #expect(!(try bob.run(["policy", "list"]).stdout.contains("two ")))
        let refused = try bob.run(["habit", "edit", "walk", "--streak", "two"])
        #expect(refused.status == 1 && refused.stderr.hasPrefix("Error: policy two: no such policy"), "\(refused.stderr)")
    }

    @Test("a name resolves on the command line wherever it is found: installed, the policy folder, published, built-in", arguments: [
        "installed", "folder", "published", "built-in",
    ])
    func resolution(source: String) throws {
        let cli = try reading()
        let name = source == "built-in" ? "grace" : "rule-\(source)"
        let elsewhere = cli.folder.path("\(name).lua")
        try PolicyJourney.twoMisses.write(toFile: elsewhere, atomically: true, encoding: .utf8)
        switch source {
        case "installed": #expect(try cli.run(["policy", "install", elsewhere]).status == 0)
        case "folder": try cli.writePolicy(name, PolicyJourney.twoMisses)
        case "published": #expect(try cli.run(["policy", "publish", elsewhere]).status == 0)
        default: break
        }
        let listed = try #require(try jsonObject(try cli.run(["policy", "list", "--json"]).stdout)["policies"] as? [[String: Any]])
        #expect(listed.contains { $0["name"] as? String == name && $0["source"] as? String == source && $0["inUse"] as? Bool == true }, "\(listed)")
        #expect(try cli.run(["policy", "show", name]).status == 0)
        #expect(try cli.run(["policy", "check", name]).status == 0)
        #expect(try cli.run(["policy", "test", name]).status == 0)
        #expect(try cli.run(["policy", "simulate", name, "--history", "YNY"]).status == 0)
        #expect(try cli.run(["policy", "simulate", name, "--habit", "read"]).status == 0)
        let edited = try cli.run(["habit", "edit", "read", "--streak", name, "--from", PolicyJourney.from])
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(try cli.run(["habit", "add", "walk", "--streak", name]).status == 0)
        #expect(try cli.run(["explain", "read"]).status == 0)
    }

    @Test("a failing case exits 1 naming its file and line, what was expected and got, and what it traced")
    func failingCase() throws {
        let cli = try CLIFixture(now: PolicyJourney.now)
        let file = cli.folder.path("policies/two.lua")
        try PolicyJourney.twoMisses.replacingOccurrences(of: #"{ history = "YYNNY", current = 1, longest = 2 }"#,
                                                          with: #"{ history = "YYNNY", current = 2, longest = 2 }"#)
            .write(toFile: file, atomically: true, encoding: .utf8)
        let result = try cli.run(["policy", "test", "two"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("FAIL two (\(file)): 1 of 3 cases failed"), "\(result.stdout)")
        #expect(result.stdout.contains("\(file):6: example 2: history YYNNY gave current 1, longest 2; expected current 2"), "\(result.stdout)")
        #expect(result.stdout.contains("trace two.lua:22 forgiven"), "\(result.stdout)")
        let json = try jsonObject(try cli.run(["policy", "test", "two", "--json"]).stdout)
        let failure = try #require(((json["policies"] as? [[String: Any]])?.first?["failures"] as? [[String: Any]])?.first)
        #expect(failure["line"] as? Int == 6 && failure["case"] as? String == "example 2" && json["passed"] as? Bool == false)
    }

    @Test("--coverage lists the lines no case ran")
    func coverage() throws {
        let cli = try CLIFixture()
        try cli.writePolicy("halves", """
        return {
          progress = function(total, goal)
            if total > goal then
              return 1
            end
            return total / goal
          end,
          examples = { { total = 1, goal = 2, progress = 0.5 } },
        }
        """)
        let result = try cli.run(["policy", "test", "halves", "--coverage"])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("coverage: 2 of 3 lines (66%); not run: 4"), "\(result.stdout)")
    }

    @Test("a wrong answer names the line of its return, an endless loop the line it was on; neither names a made-up day", arguments: [
        ("return {\n  progress = function(total, goal)\n    if total > 0 then\n      return \"lots\"\n    end\n    return 0\n  end,\n  examples = { { total = 1, goal = 1, progress = 1 } },\n}\n",
         ["policy", "check", "bad"], "bad.lua:4): progress returned string; expected a number from 0 to 1"),
        ("return {\n  streak = function(state)\n    state.current = nil\n    return state\n  end,\n  examples = { { history = \"Y\", current = 1 } },\n}\n",
         ["policy", "test", "bad"], "bad.lua:4): streak returned a state whose current is not a whole number >= 0"),
        ("return {\n  isDue = function(day)\n    local n = 0\n    while true do\n      n = n + 1\n    end\n  end,\n}\n",
         ["policy", "preview", "bad", "--from", "2026-11-01", "--to", "2026-11-02"], "bad.lua:5)"),
    ] as [(String, [String], String)])
    func lines(source: String, command: [String], expected: String) throws {
        let cli = try CLIFixture()
        try cli.writePolicy("bad", source)
        let result = try cli.run(command, environment: ["STACKDAY_POLICY_CPU_MS": "300"])
        #expect(result.status == 1)
        let said = result.stdout + result.stderr
        #expect(said.contains(expected), "\(said)")
        #expect(!said.contains("1970-01-01"), "\(said)")
    }

    @Test("policy new writes a starter for each role that passes check and test; it never overwrites; a bad role is a usage error")
    func starters() throws {
        let cli = try CLIFixture()
        for role in ["schedule", "progress", "streak"] {
            #expect(try cli.run(["policy", "new", "my-\(role)", "--role", role]).status == 0)
            #expect(try cli.run(["policy", "check", "my-\(role)"]).status == 0)
        }
        let all = try cli.run(["policy", "test"])
        #expect(all.status == 0 && all.stdout.split(separator: "\n").filter { $0.hasPrefix("PASS ") }.count == 3, "\(all.stdout)")
        let again = try cli.run(["policy", "new", "my-streak", "--role", "streak"])
        #expect(again.status == 1 && again.stderr.contains("exists already"), "\(again.stderr)")
        #expect(try cli.run(["policy", "new", "x", "--role", "diet"]).status == 64)
        #expect(try cli.run(["policy", "new", "bad name", "--role", "streak"]).status == 64)
    }

    @Test("policy test with nothing to test is a usage error (64); a name nothing has fails (1)")
    func usage() throws {
        let cli = try CLIFixture()
        #expect(try cli.run(["policy", "test"]).status == 64)
        let missing = try cli.run(["policy", "test", "nope"])
        #expect(missing.status == 1 && missing.stdout.contains("FAIL nope: no such policy: nope"), "\(missing.stdout)")
    }

    @Test("policy types prints annotations of every role and calendar function")
    func types() throws {
        let out = try CLIFixture().run(["policy", "types"]).stdout
        for needle in ["---@meta stackday", "---@class stackday.Policy", "---@field streak?", "function calendar.select", "function trace(...) end"] {
            #expect(out.contains(needle), "\(needle)")
        }
    }
}
