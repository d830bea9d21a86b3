import Foundation
import Testing
import StackDay
import StackDayTestSupport

/// Writes that fail write nothing, and the small refusals a careful user meets, through the
/// command line as a subprocess.
@Suite("store edges")
struct StoreEdgeTests {
    func sqlite(_ cli: CLIFixture, _ sql: String) -> [String] { SQLiteShell.run(cli.db, sql) }

    /// A streak rule that resets on a miss (the versioned-policy tests' own).
    static let resetting = VersionedPolicyTests.resetting

    @Test("a policy upgrade that a habit's parameters refuse stores no script, no revision and moves no counter")
    func refusedUpgrade() throws {
        let cli = try CLIFixture(now: "2026-10-20T21:00:00+09:00")
        try cli.writePolicy("mine", Self.resetting.replacingOccurrences(of: "  examples =", with: "  params = { bonus = 1 },\n  examples ="))
        let add = try cli.run(["habit", "add", "walk", "--streak", "mine", "--streak-params", #"{"bonus":2}"#, "--start", "2026-10-01"])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(try cli.run(["record", "walk", "--on", "2026-10-02"]).status == 0)
        // The new version passes its own checks, but no longer takes the habit's parameter.
        try cli.writePolicy("mine", Self.resetting)
        let before = (sqlite(cli, "SELECT count(*) FROM policy_scripts"), sqlite(cli, "SELECT generation FROM owner_changes"),
                      try cli.snapshot(), sqlite(cli, "SELECT count(*) FROM habit_revisions"))
        let upgrade = try cli.run(["policy", "upgrade", "mine"])
        #expect(upgrade.status == 1)
        #expect(upgrade.stderr.contains("bonus"), "\(upgrade.stderr)")
        let after = (sqlite(cli, "SELECT count(*) FROM policy_scripts"), sqlite(cli, "SELECT generation FROM owner_changes"),
                     try cli.snapshot(), sqlite(cli, "SELECT count(*) FROM habit_revisions"))
        #expect(after.0 == before.0 && after.1 == before.1 && after.2 == before.2 && after.3 == before.3)
    }

    @Test("policy upgrade of a name nothing has is 'no such policy' (policy_not_found); of no name a usage error")
    func upgradeUnknown() throws {
        let cli = try CLIFixture()
        let unknown = try cli.run(["policy", "upgrade", "nonexistent"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "Error: no such policy: nonexistent (not among your installed scripts, the policy folder, the scripts offered to you or the built-ins)\n")
        let json = try cli.run(["policy", "upgrade", "nonexistent", "--json"])
        #expect(json.stderr.contains(#""code":"policy_not_found""#), "\(json.stderr)")
        let empty = try cli.run(["policy", "upgrade", ""])
        #expect(empty.status == 64)
        #expect(empty.stderr.hasPrefix("Error: invalid value for <name>: '' is not a policy name"), "\(empty.stderr)")
    }

    @Test("the policy authoring commands refuse the store options every command refuses", arguments: [
        ["policy", "list"], ["policy", "check", "daily"], ["policy", "show", "daily"],
        ["policy", "simulate", "strict", "--history", "YYN"], ["policy", "preview", "daily", "--from", "2026-10-01", "--to", "2026-10-31"],
    ])
    func authoringChecksStore(command: [String]) throws {
        let folder = try TemporaryFolder()
        for (option, message) in [
            (["--database", "mysql://x"], "Error: invalid value for --database: 'mysql://x'"),
            (["--db", "a.sqlite", "--database", "b.sqlite"], "Error: --db and --database name two stores; give one"),
            (["--user", " bob"], "Error: invalid value for --user"),
        ] {
            let result = try runStackday(command + option)
            #expect(result.status == 64, "\(command + option): \(result.stderr)")
            #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
            #expect(try runStackday(["today"] + option).stderr.hasPrefix(message), "the same as a command that opens the store")
        }
        #expect(try runStackday(command + ["--db", folder.path("x.sqlite"), "--user", "bob"]).status == 0, "valid ones are accepted")
        #expect(!FileManager.default.fileExists(atPath: folder.path("x.sqlite")), "and no store is opened")
    }

    @Test("demo writes to the store --database names, and nowhere else")
    func demoDatabase() throws {
        let folder = try TemporaryFolder()
        let home = folder.path("data")
        let target = folder.path("mine/demo-here.sqlite")
        let result = try runStackday(["demo", "--database", "sqlite:" + target, "--lang", "en"], environment: ["XDG_DATA_HOME": home, "STACKDAY_DB": ""])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("3 habits, 30 completions (\(target))"), "\(result.stdout)")
        #expect(FileManager.default.fileExists(atPath: target))
        #expect(!FileManager.default.fileExists(atPath: home + "/stackday/demo.sqlite"))
        let again = try runStackday(["demo", "--database", "sqlite:" + target])
        #expect(again.status == 1 && again.stderr.contains("already holds habits"))
    }

    @Test("a record whose output cannot be written says it was recorded", .enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func outputAfterCommit() throws {
        let cli = try CLIFixture()
        #expect(try cli.run(["habit", "add", "water"]).status == 0)
        let result = try Subprocess(executable: URL(fileURLWithPath: "/bin/sh")).run([
            "-c", "exec \"$0\" --db \"$1\" --tz +09:00 --now 2026-10-11T20:00:00+09:00 record water > /dev/full",
            Subprocess(product: "stackday").executable.path, cli.db,
        ])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: recorded, but cannot write to standard output: No space left on device (the change is stored"), "\(result.stderr)")
        #expect(sqlite(cli, "SELECT count(*) FROM completions") == ["1"])
    }

    @Test("a script with a NUL byte is refused by policy install and by import; nothing is written")
    func nulScript() throws {
        let cli = try CLIFixture()
        let file = cli.folder.path("nul.lua")
        try (Self.resetting + "\u{0}").write(toFile: file, atomically: true, encoding: .utf8)
        let install = try cli.run(["policy", "install", file])
        #expect(install.status == 1)
        #expect(install.stderr.contains("holds a NUL byte at byte \(Self.resetting.utf8.count)"), "\(install.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.db) || sqlite(cli, "SELECT count(*) FROM policy_scripts") == ["0"])

        // An archive carrying the script (its hash right) is refused whole.
        let source = try CLIFixture()
        try source.writePolicy("mine", Self.resetting)
        #expect(try source.run(["habit", "add", "walk", "--streak", "mine"]).status == 0)
        var archive = try source.run(["export", "--format", "json"]).stdout
        let good = PolicyScript(name: "mine", source: Self.resetting, installedAt: Date()).sha256
        let bad = PolicyScript(name: "mine", source: Self.resetting + "\u{0}", installedAt: Date()).sha256
        let escaped = try #require(String(data: try JSONSerialization.data(withJSONObject: [Self.resetting], options: [.withoutEscapingSlashes]), encoding: .utf8))
        let sourceJSON = String(escaped.dropFirst().dropLast())
        #expect(archive.contains(sourceJSON), "the export carries the source as JSON text")
        archive = archive.replacingOccurrences(of: sourceJSON, with: String(sourceJSON.dropLast()) + "\\u0000\"")
            .replacingOccurrences(of: good, with: bad)
        let path = cli.folder.path("archive.json")
        try archive.write(toFile: path, atomically: true, encoding: .utf8)
        let target = try CLIFixture()
        let imported = try target.run(["import", path])
        #expect(imported.status == 1)
        #expect(imported.stderr.contains("holds a NUL byte"), "\(imported.stderr)")
        #expect(try target.run(["habit", "list", "--json"]).stdout == "{\"habits\":[],\"next\":null}\n")
    }

    @Test("reads ahead answer at once and grow the file by nothing: a calendar a year ahead, a week past the read window")
    func readsAheadStoreNothing() throws {
        let cli = try CLIFixture()
        #expect(try cli.run(["habit", "add", "water", "--start", "2026-01-01"]).status == 0)
        for day in 1...9 { #expect(try cli.run(["record", "water", "--on", "2026-10-0\(day)"]).status == 0) }
        #expect(try cli.run(["stats"]).status == 0)
        func stored() -> [String] { sqlite(cli, "SELECT max(valid_through), max(length(days)), (SELECT page_count FROM pragma_page_count()) FROM evaluation_cache") }
        let before = stored()
        let started = Date()
        let calendar = try cli.run(["calendar", "water", "--from", "2027-10-01", "--to", "2027-10-12", "--json"])
        #expect(calendar.status == 0, "\(calendar.stderr)")
        #expect(calendar.stdout.contains("2027-10-12"))
        let far = try cli.run(["report", "week", "--week-of", "9999-12-31", "--json"])
        #expect(far.status == 1 && far.stderr.contains(#""code":"read_out_of_bounds""#), "\(far.stderr)")
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(stored() == before, "the cache keeps no day after today: \(stored())")
        #expect(before.first?.hasPrefix("2026-10-11|") == true, "\(before)")
    }
}
