import Foundation
import Testing
import StackDayTestSupport

/// Pinned scripts, rule revisions, upgrade, rollback and simulate, through the command line.
@Suite("versioned policies")
struct VersionedPolicyTests {
    /// `read` from 2026-10-01, done every day to 2026-10-20 but the 4th, 12th and 15th.
    func reading(_ streak: [String] = []) throws -> CLIFixture {
        let cli = try CLIFixture(now: "2026-10-20T21:00:00+09:00")
        #expect(try cli.run(["habit", "add", "read", "--start", "2026-10-01"] + streak).status == 0)
        for day in 1...20 where ![4, 12, 15].contains(day) {
            #expect(try cli.run(["record", "read", "--on", String(format: "2026-10-%02d", day)]).status == 0)
        }
        return cli
    }

    func stats(_ cli: CLIFixture, _ name: String) throws -> [String: Any] {
        let result = try cli.run(["stats", name, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        return try #require((try jsonObject(result.stdout)["habits"] as? [[String: Any]])?.first)
    }

    /// JSON text with sorted keys: equal values compare equal.
    func canonical(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
    }

    func streak(_ cli: CLIFixture, _ name: String) throws -> [Int] {
        let figures = try stats(cli, name)
        return [figures["current"] as? Int ?? -1, figures["longest"] as? Int ?? -1]
    }

    func calendar(_ cli: CLIFixture, _ name: String, from: String, to: String) throws -> String {
        let result = try cli.run(["calendar", name, "--from", from, "--to", to, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    @Test("habit edit --from D keeps every day before D as it was and judges D on by the new rule")
    func editFrom() throws {
        let cli = try reading()
        #expect(try streak(cli, "read") == [5, 7])
        let before = try calendar(cli, "read", from: "2026-10-01", to: "2026-10-11")
        cli.now = "2026-10-11T21:00:00+09:00"
        let streakBefore = try streak(cli, "read")
        cli.now = "2026-10-20T21:00:00+09:00"

        let edit = try cli.run(["habit", "edit", "read", "--streak", "grace", "--from", "2026-10-12"])
        #expect(edit.stdout == "Updated 'read': rule revision 2 judges days from 2026-10-12.\n", "\(edit.stderr)")
        #expect(try calendar(cli, "read", from: "2026-10-01", to: "2026-10-11") == before)
        cli.now = "2026-10-11T21:00:00+09:00"
        #expect(try streak(cli, "read") == streakBefore)
        cli.now = "2026-10-20T21:00:00+09:00"
        // grace takes over with 7 carried: the 12th is forgiven (9 by the 14th); the 15th is a
        // second miss in 7 days and resets; the 16th to the 20th make 5.
        #expect(try streak(cli, "read") == [5, 9])

        let history = try cli.run(["policy", "history", "read"]).stdout.split(separator: "\n")
        #expect(history.count == 2)
        #expect(history[1].hasPrefix("2  2026-10-12  goal 1  schedule daily@") && history[1].contains("streak grace@"), "\(history)")
        let json = try jsonObject(try cli.run(["policy", "history", "read", "--json"]).stdout)
        let revisions = try #require(json["revisions"] as? [[String: Any]])
        #expect(revisions.map { $0["revision"] as? Int } == [1, 2])
        #expect(revisions.map { $0["from"] as? String } == ["2026-10-01", "2026-10-12"])
        let streakRule = try #require(revisions[1]["streak"] as? [String: Any])
        #expect(streakRule["name"] as? String == "grace" && (streakRule["sha256"] as? String)?.count == 64)
        #expect((streakRule["params"] as? [String: Any])?.isEmpty == true)
        #expect(json["habit"] as? String == "read")
    }

    @Test("--retroactive judges the whole history again, like a habit created with the rule; rollback brings the figures back")
    func retroactiveAndRollback() throws {
        let cli = try reading()
        let original = try stats(cli, "read")
        #expect(try cli.run(["habit", "edit", "read", "--streak", "grace", "--retroactive"]).status == 0)
        let fresh = try reading(["--streak", "grace"])
        #expect(try streak(cli, "read") == [5, 12])
        #expect(try streak(fresh, "read") == [5, 12])
        #expect(try calendar(cli, "read", from: "2026-10-01", to: "2026-10-20") == calendar(fresh, "read", from: "2026-10-01", to: "2026-10-20"))

        let rollback = try cli.run(["policy", "rollback", "read", "--to", "1", "--from", "2026-10-01"])
        #expect(rollback.stdout == "'read': took back revision 2; the rules before it judge again as revision 3 (2026-10-01)\n", "\(rollback.stderr)")
        var restored = try stats(cli, "read")
        var expected = original
        for key in ["rules"] { restored[key] = nil; expected[key] = nil }
        #expect(try canonical(restored) == canonical(expected))
        // The rules in force are revision 3, with revision 1's pins.
        let rules = try #require(try stats(cli, "read")["rules"] as? [String: Any])
        let first = try #require(original["rules"] as? [String: Any])
        #expect(rules["revision"] as? Int == 3)
        #expect(try canonical(rules["streak"] ?? [:]) == canonical(first["streak"] ?? [:]))
        // Without --to: the rules of the revision before the latest (grace) return.
        #expect(try cli.run(["policy", "rollback", "read", "--from", "2026-10-01"]).status == 0)
        #expect(try streak(cli, "read") == [5, 12])
    }

    static let counting = StreakScripts.counting
    static let resetting = StreakScripts.resetting

    @Test("editing or deleting a policy file changes no habit until policy upgrade; simulate writes nothing and its current column is stats")
    func pinning() throws {
        let cli = try CLIFixture(now: "2026-10-20T21:00:00+09:00")
        try cli.writePolicy("mine", Self.resetting)
        #expect(try cli.run(["habit", "add", "walk", "--streak", "mine", "--start", "2026-10-01"]).status == 0)
        for day in [1, 2, 3, 5, 6, 8, 9, 10, 11, 12, 14, 15, 16, 17, 18, 19] {
            #expect(try cli.run(["record", "walk", "--on", String(format: "2026-10-%02d", day)]).status == 0)
        }
        let pinned = try stats(cli, "walk")
        // Misses on the 4th, 7th and 13th; the 14th to the 19th make 6 (the 20th is still pending).
        #expect(try streak(cli, "walk") == [6, 6])

        try cli.writePolicy("mine", Self.counting)
        #expect(try canonical(try stats(cli, "walk")) == canonical(pinned), "an edited file moves nothing")
        #expect(try cli.run(["policy", "show", "mine"]).stdout.contains("nothing resets"), "the authoring commands read the file live")

        let before = try cli.databaseBytes()
        let simulation = try cli.run(["policy", "simulate", "mine", "--habit", "walk", "--json"])
        #expect(simulation.status == 0, "\(simulation.stderr)")
        #expect(try cli.databaseBytes() == before, "simulate writes nothing")
        let figures = try jsonObject(simulation.stdout)
        let current = try #require(figures["current"] as? [String: Any])
        #expect(try canonical(current) == canonical(pinned))
        let proposed = try #require(figures["proposed"] as? [String: Any])
        #expect(proposed["current"] as? Int == 16 && proposed["longest"] as? Int == 16)
        let table = try cli.run(["policy", "simulate", "mine", "--habit", "walk"]).stdout
        #expect(table.contains("current streak  6        16"), "\(table)")

        let upgrade = try cli.run(["policy", "upgrade", "mine", "--retroactive"])
        #expect(upgrade.status == 0, "\(upgrade.stderr)")
        #expect(upgrade.stdout.contains("upgraded 'walk': revision 2 from 2026-10-01"), "\(upgrade.stdout)")
        #expect(try streak(cli, "walk") == [16, 16])
        let again = try cli.run(["policy", "upgrade", "mine"])
        #expect(again.stdout.contains("'walk' already runs it"), "\(again.stdout)")

        let upgraded = try stats(cli, "walk")
        try FileManager.default.removeItem(atPath: cli.folder.path("policies"))
        #expect(try canonical(try stats(cli, "walk")) == canonical(upgraded), "a deleted folder moves nothing")
        #expect(try cli.run(["today"]).status == 0)
    }

    @Test("a backup restores identical figures on a machine without the policy folder, and round-trips byte for byte",
          arguments: ["json", "csv"])
    func backup(format: String) throws {
        let cli = try reading()
        try cli.writePolicy("mine", Self.counting)
        #expect(try cli.run(["habit", "add", "walk", "--streak", "mine", "--start", "2026-10-05"]).status == 0)
        #expect(try cli.run(["record", "walk", "--on", "2026-10-06"]).status == 0)
        #expect(try cli.run(["habit", "edit", "read", "--streak", "grace", "--streak-params", #"{"misses":2}"#, "--from", "2026-10-10"]).status == 0)
        #expect(try cli.run(["policy", "install", "freeze"]).status == 0)
        let stats = try cli.run(["stats", "--json"]).stdout
        let export = try cli.run(["export", "--format", format]).stdout
        #expect(export.contains("return {"), "the scripts travel with the backup")

        let other = try CLIFixture(now: cli.now)
        try FileManager.default.removeItem(atPath: other.folder.path("policies"))
        let file = other.folder.path("backup.\(format)")
        try export.write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try other.run(["import", file])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try other.run(["stats", "--json"]).stdout == stats)
        #expect(try other.run(["export", "--format", format]).stdout == export)
        #expect(try other.run(["policy", "history", "read"]).stdout == cli.run(["policy", "history", "read"]).stdout)
    }

    @Test("policy install loads, runs the examples, then stores; a failing file is refused with each failure and nothing stored")
    func install() throws {
        let cli = try reading()
        try cli.writePolicy("mine", Self.counting)
        let installed = try cli.run(["policy", "install", cli.folder.path("policies/mine.lua")])
        #expect(installed.status == 0, "\(installed.stderr)")
        let hash = try #require(try cli.run(["policy", "show", "mine", "--json"]).stdout.split(separator: "\"").drop { $0 != "sha256" }.dropFirst(2).first)
        #expect(installed.stdout == "installed mine sha256:\(hash.prefix(12))\n")

        let wrong = Self.counting.replacingOccurrences(of: "current = 2, longest = 2", with: "current = 3, longest = 2")
            .replacingOccurrences(of: "{ history = \"YNY\"", with: "{ history = \"YN\", current = 9, longest = 9 },\n    { history = \"YNY\"")
        try wrong.write(toFile: cli.folder.path("wrong.lua"), atomically: true, encoding: .utf8)
        let before = try cli.databaseBytes()
        let refused = try cli.run(["policy", "install", cli.folder.path("wrong.lua")])
        #expect(refused.status == 1)
        #expect(refused.stderr == "Error: policy wrong was not installed: 2 checks failed\n")
        let failures = refused.stdout.split(separator: "\n")
        #expect(failures.count == 2, "\(refused.stdout)")
        #expect(failures.allSatisfy { $0.hasPrefix("FAIL \(cli.folder.path("wrong.lua")): example ") }, "\(failures)")
        #expect(failures[0].contains("example 1 (line 8): history YN gave current 1, longest 1; expected current 9, longest 9"), "\(failures)")
        #expect(failures[1].contains("example 2 (line 9)"), "\(failures)")
        #expect(try cli.databaseBytes() == before)
    }

    @Test("a policy-folder script a habit names is vetted as policy install vets it: one whose examples fail binds no habit")
    func folderScriptsAreVetted() throws {
        let cli = try reading()
        let wrong = Self.counting.replacingOccurrences(of: "current = 2, longest = 2", with: "current = 3, longest = 2")
        try cli.writePolicy("bad-strikes", wrong)
        let before = try cli.databaseBytes()
        let added = try cli.run(["habit", "add", "walk", "--streak", "bad-strikes"])
        #expect(added.status == 1 && added.stderr.contains("bad-strikes") && added.stderr.contains("example"), "\(added.stderr)")
        #expect(try cli.run(["habit", "edit", "read", "--streak", "bad-strikes"]).status == 1)
        #expect(try cli.databaseBytes() == before)
        try cli.writePolicy("good-strikes", Self.counting)
        #expect(try cli.run(["habit", "add", "walk", "--streak", "good-strikes"]).status == 0)
    }

    @Test("bad revision input: one line, exit 1 (64 for usage), nothing written", arguments: [
        (["policy", "rollback", "read", "--to", "9"], 1, "Error: 'read' has no rule revision 9 (its revisions are 1 … 1)"),
        (["policy", "rollback", "read"], 1, "Error: 'read' has a single rule revision; there is nothing to roll back to"),
        (["habit", "edit", "read", "--goal", "2", "--from", "2026-09-30"], 1, "Error: 2026-09-30 is before 'read' started (2026-10-01)"),
        (["habit", "edit", "old", "--goal", "2", "--from", "2026-10-16"], 1, "Error: 2026-10-16 is after 'old' was archived (2026-10-15)"),
        (["policy", "rollback", "read", "--to", "1", "--from", "2026-09-01"], 1, "Error: 2026-09-01 is before 'read' started (2026-10-01)"),
        (["habit", "edit", "read", "--streak", "grace", "--streak-params", #"{"misses":-1}"#], 1, "parameters for grace: 'misses' must be at least 0, not -1"),
        (["habit", "edit", "read", "--schedule", "nope"], 1, "Error: policy nope: no such policy"),
        (["habit", "edit", "read", "--goal", "2", "--from", "2026-10-05", "--retroactive"], 64, "Error: --from and --retroactive cannot be used together"),
        (["habit", "edit", "read", "--from", "2026-10-05"], 64, "Error: --from and --retroactive apply to a new goal or policy"),
        (["policy", "rollback", "read", "--to", "zero"], 64, "Error: invalid value for --to: 'zero' is not a revision number"),
        (["policy", "simulate", "grace", "--habit", "read", "--role", "diet"], 64, "Error: invalid value for --role: 'diet'"),
        (["policy", "simulate", "grace", "--habit", "nobody"], 1, "Error: no habit named 'nobody'"),
        (["policy", "upgrade", "nope"], 1, "Error: no such policy: nope"),
        (["policy", "install", "missing.lua"], 1, "Error: no such file: missing.lua"),
    ])
    func badInput(arguments: [String], status: Int32, message: String) throws {
        let cli = try reading()
        #expect(try cli.run(["habit", "add", "old", "--start", "2026-10-01"]).status == 0)
        #expect(try cli.run(["habit", "archive", "old", "--on", "2026-10-15"]).status == 0)
        let before = try cli.databaseBytes()
        let result = try cli.run(arguments)
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stderr.hasPrefix(message) || result.stderr.contains(message), "\(result.stderr)")
        if status == 1 { #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)") }
        #expect(try cli.databaseBytes() == before)
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// Each habit of a `stats --json` answer by name, without the rules (which the older schema did not print).
    func figures(_ text: String) throws -> [String: String] {
        let habits = try #require(try jsonObject(text)["habits"] as? [[String: Any]])
        var byName: [String: String] = [:]
        for habit in habits {
            // The figures, and whether the habit is archived (an older build wrote `archived`).
            var kept = habit.filter { ["completedDays", "current", "eligibleDays", "longest", "rate", "score"].contains($0.key) }
            kept["archived"] = habit["archived"] as? Bool ?? (habit["archivedOn"] is String)
            byName[habit["name"] as? String ?? ""] = try canonical(kept)
        }
        return byName
    }

    @Test("a file written by the previous schema migrates without losing a completion and keeps every figure")
    func migration() throws {
        let cli = try CLIFixture(now: "2026-10-20T21:00:00+09:00")
        try FileManager.default.copyItem(atPath: Self.fixtures.appendingPathComponent("schema3.sqlite").path, toPath: cli.db)
        try FileManager.default.removeItem(atPath: cli.folder.path("policies"))
        try FileManager.default.copyItem(atPath: Self.fixtures.appendingPathComponent("policies").path, toPath: cli.folder.path("policies"))
        // The figures that build printed, but gym's score: a quota habit's score has since become
        // Loop's, a step a day (docs/domain.md), and the fixture holds the new one.
        let expected = try figures(String(contentsOf: Self.fixtures.appendingPathComponent("schema3-stats.json"), encoding: .utf8))
        #expect(expected.count == 4)

        let stats = try cli.run(["stats", "--json"])
        #expect(stats.status == 0, "\(stats.stderr)")
        #expect(try figures(stats.stdout) == expected)
        // Every rule was pinned on first open: the folder can go.
        let history = try cli.run(["policy", "history", "stretch"]).stdout
        #expect(history.hasPrefix("1  2026-10-02  goal 1  schedule every-other@"), "\(history)")
        try FileManager.default.removeItem(atPath: cli.folder.path("policies"))
        #expect(try figures(try cli.run(["stats", "--json"]).stdout) == expected)

        let old = try String(contentsOf: Self.fixtures.appendingPathComponent("schema3-export-v1.json"), encoding: .utf8)
        let export = try cli.run(["export", "--format", "json"]).stdout
        let completions = { (text: String) in text.split(separator: "\n").filter { $0.contains("\"recordedAt\"") && $0.contains("\"amount\"") }.map(String.init) }
        #expect(completions(old).count == 45)
        #expect(completions(export) == completions(old))
    }

    @Test("an export written before revisions imports as revision 1, pinned to the scripts found then")
    func versionOneImport() throws {
        let cli = try CLIFixture(now: "2026-10-20T21:00:00+09:00")
        try FileManager.default.removeItem(atPath: cli.folder.path("policies"))
        try FileManager.default.copyItem(atPath: Self.fixtures.appendingPathComponent("policies").path, toPath: cli.folder.path("policies"))
        let imported = try cli.run(["import", Self.fixtures.appendingPathComponent("schema3-export-v1.json").path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let expected = try figures(String(contentsOf: Self.fixtures.appendingPathComponent("schema3-stats.json"), encoding: .utf8))
        #expect(try figures(try cli.run(["stats", "--json"]).stdout) == expected)
        #expect(try cli.run(["policy", "history", "stretch"]).stdout.contains("schedule every-other@"))
    }
}
