import Foundation
import Testing
import StackDayTestSupport

/// `--user` on both stores: one user never sees, changes or counts another's data.
@Suite("users on either store")
struct OwnerCommandTests {
    enum Store: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case sqlite, postgres
        var testDescription: String { rawValue }
    }

    /// Two users of one store: a SQLite file in the first fixture's folder, or the shared test server.
    func users(_ store: Store, now: String = "2026-10-11T22:00:00+09:00") throws -> (CLIFixture, CLIFixture) {
        let tag = UUID().uuidString
        switch store {
        case .postgres:
            let url = try commandServer.get().url
            return (try CLIFixture(now: now, database: url, user: "ana-\(tag)"), try CLIFixture(now: now, database: url, user: "bob-\(tag)"))
        case .sqlite:
            let holder = try CLIFixture(now: now)
            let url = "sqlite:" + holder.folder.path("shared.sqlite")
            let ana = try CLIFixture(now: now, database: url, user: "ana")
            let bob = try CLIFixture(now: now, database: url, user: "bob")
            // The file lives in `holder`'s folder: keep it until both users are gone.
            ana.keepAlive = holder
            return (ana, bob)
        }
    }

    @Test("one user never sees, changes or counts another's habits", arguments: Store.allCases)
    func isolation(store: Store) throws {
        let (ana, bob) = try users(store)
        #expect(try ana.run(["habit", "add", "read", "--start", "2026-10-01"]).status == 0)
        #expect(try ana.run(["record", "read", "--on", "2026-10-10"]).status == 0)
        #expect(try bob.run(["habit", "list", "--json"]).stdout == "{\"habits\":[],\"next\":null}\n")
        let foreign = try bob.run(["record", "read", "--on", "2026-10-10"])
        #expect(foreign.status == 1 && foreign.stderr == "Error: no habit named 'read'\n", "\(foreign.stderr)")
        // The same name is free for another user.
        #expect(try bob.run(["habit", "add", "read", "--start", "2026-10-05"]).status == 0)
        #expect(try bob.run(["stats", "read", "--json"]).stdout.contains(#""completedDays":0"#))
        #expect(try ana.run(["stats", "read", "--json"]).stdout.contains(#""completedDays":1"#))
        #expect(try bob.run(["habit", "delete", "read", "--yes"]).status == 0)
        #expect(try ana.run(["habit", "list"]).stdout.contains("read"))
    }

    @Test("one archive imported by two users gives each the same figures, apart", arguments: Store.allCases)
    func sameArchiveTwice(store: Store) throws {
        let (ana, bob) = try users(store)
        #expect(try ana.run(["habit", "add", "read", "--start", "2026-10-01", "--streak", "grace"]).status == 0)
        for day in [1, 2, 4, 5, 8] { #expect(try ana.run(["record", "read", "--on", String(format: "2026-10-%02d", day)]).status == 0) }
        let file = ana.folder.path("ana.json")
        try ana.run(["export", "--format", "json"]).stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try bob.run(["import", file])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try bob.run(["stats", "--json"]).stdout == ana.run(["stats", "--json"]).stdout)
        // Same ids, separate rows: undoing bob's record leaves ana's.
        #expect(try bob.run(["undo", "read", "--on", "2026-10-08"]).status == 0)
        #expect(try ana.run(["calendar", "read", "--from", "2026-10-08", "--to", "2026-10-08", "--json"]).stdout.contains(#""state":"completed""#))
        #expect(try bob.run(["calendar", "read", "--from", "2026-10-08", "--to", "2026-10-08", "--json"]).stdout.contains(#""state":"missed""#))
    }

    @Test("another user's habit is not there for any command", arguments: Store.allCases, [
        ["habit", "show", "read"],
        ["habit", "edit", "read", "--goal", "2"],
        ["habit", "rename", "read", "book"],
        ["habit", "archive", "read"],
        ["habit", "delete", "read", "--yes"],
        ["record", "read", "--on", "2026-10-10"],
        ["undo", "read", "--on", "2026-10-10"],
        ["skip", "read", "--on", "2026-10-09"],
        ["calendar", "read"],
        ["stats", "read"],
        ["policy", "history", "read"],
        ["policy", "rollback", "read"],
        ["policy", "simulate", "grace", "--habit", "read"],
    ])
    func isolationPerCommand(store: Store, arguments: [String]) throws {
        let (owner, other) = try users(store)
        #expect(try owner.run(["habit", "add", "read", "--start", "2026-10-01", "--streak", "grace"]).status == 0)
        #expect(try owner.run(["habit", "edit", "read", "--streak", "strict", "--from", "2026-10-05"]).status == 0)
        #expect(try owner.run(["record", "read", "--on", "2026-10-10"]).status == 0)
        let before = try owner.run(["export", "--format", "json"]).stdout
        let result = try other.run(arguments)
        #expect(result.status == 1 && result.stderr == "Error: no habit named 'read'\n", "\(arguments): \(result.stderr)")
        // Nothing the other user reads lists it, and the owner's data is as it was.
        for listing in [["habit", "list", "--json"], ["today", "--json"], ["stats", "--json"]] {
            #expect(!(try other.run(listing).stdout.contains("\"read\"")), "\(listing)")
        }
        #expect(try other.run(["export", "--format", "json"]).stdout.contains("\"habits\":[\n]"))
        #expect(try owner.run(["export", "--format", "json"]).stdout == before)
    }

    @Test("a script one user installed is not another's, unless they install it too", arguments: Store.allCases)
    func scripts(store: Store) throws {
        let (ana, bob) = try users(store)
        let source = "return { streak = function(s, d, o) if o.met then s.current = s.current + 1 s.longest = math.max(s.longest, s.current) end return s end }\n"
        let file = ana.folder.path("counting.lua")
        try source.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try ana.run(["policy", "install", file]).status == 0)
        let listed = try bob.run(["export", "--format", "json"])
        #expect(listed.status == 0 && !listed.stdout.contains("counting"), "\(listed.stdout)")
        #expect(try bob.run(["habit", "add", "read", "--start", "2026-10-01", "--streak", "counting"]).status == 1)
        #expect(try bob.run(["policy", "install", file]).status == 0)
        #expect(try bob.run(["habit", "add", "read", "--start", "2026-10-01", "--streak", "counting"]).status == 0)
    }

    @Test("a user name that is empty, too long or not printable is a usage error", arguments: [
        "", String(repeating: "a", count: 101), "ana\nbob", "tab\there", " ana", "bell\u{07}", "zero\u{200B}width",
    ])
    func badNames(name: String) throws {
        let cli = try CLIFixture()
        let result = try cli.run(["--user", name, "habit", "list"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: invalid value for --user: a user name has 1 to 100 printable characters"), "\(result.stderr)")
        #expect(try cli.databaseBytes() == nil)
    }

    @Test("a file written before owners keeps its data under 'default', and a new user starts empty")
    func upgradedFile() throws {
        let cli = try CLIFixture(now: "2026-10-11T21:00:00+09:00")
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/schema3.sqlite")
        try FileManager.default.copyItem(atPath: fixture.path, toPath: cli.db)
        let before = try cli.run(["habit", "list", "--json"]).stdout
        #expect(before.contains("\"name\""))
        #expect(try cli.run(["--user", "default", "habit", "list", "--json"]).stdout == before)
        #expect(try cli.run(["--user", "ana", "habit", "list", "--json"]).stdout == "{\"habits\":[],\"next\":null}\n")
        #expect(SQLiteShell.run(cli.db, "SELECT DISTINCT owner FROM habits") == ["default"])
        #expect(SQLiteShell.run(cli.db, "PRAGMA foreign_key_check") == [])
        #expect(SQLiteShell.run(cli.db, "PRAGMA integrity_check") == ["ok"])
    }
}
