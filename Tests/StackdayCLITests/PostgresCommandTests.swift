import Foundation
import Testing
import StackDayTestSupport

/// One PostgreSQL server for these command tests, stopped when the test process exits.
let commandServer = Result { try PostgresServer() }

/// The command line on `--database postgres://…`: the same figures as on SQLite, one user never
/// seeing another's data.
@Suite("stackday on PostgreSQL")
struct PostgresCommandTests {
    func fixture(_ user: String, now: String = "2026-10-11T22:00:00+09:00") throws -> CLIFixture {
        try CLIFixture(now: now, database: try commandServer.get().url, user: user)
    }

    @Test("seed 000's weekly report, byte for byte, through --database postgres://")
    func seedReport() throws {
        let cli = try fixture("seed-\(UUID().uuidString)")
        for (name, goal, unit) in [("물 마시기", "8", "잔"), ("운동", "30", "분"), ("독서", "20", "쪽")] {
            let added = try cli.run(["habit", "add", name, "--goal", goal, "--unit", unit, "--start", "2026-10-01"])
            #expect(added.status == 0, "\(added.stderr)")
        }
        let amounts = [
            "물 마시기": [8, 8, 6, 8, 8, 8, 9, 8, 8, 8, 3], "운동": [30, 0, 45, 30, 0, 25, 30, 0, 35, 30, 30],
            "독서": [10, 25, 30, 20, 0, 15, 20, 22, 0, 20, 20],
        ]
        for (name, values) in amounts {
            for (offset, amount) in values.enumerated() where amount > 0 {
                #expect(try cli.run(["record", name, String(amount), "--on", String(format: "2026-10-%02d", offset + 1)]).status == 0)
            }
        }
        #expect(try cli.run(["record", "물 마시기", "2", "--at", "2026-10-11T21:40:00+09:00"]).status == 0)
        #expect(try cli.run(["record", "운동", "15", "--at", "2026-10-05T22:30:00Z"]).status == 0)
        let report = try cli.run(["report", "week", "--lang", "ko"])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout == SeedReport.korean + "\n")
    }

    @Test("one user never sees, changes or counts another's habits")
    func isolation() throws {
        let tag = UUID().uuidString
        let ana = try fixture("ana-\(tag)"), bob = try fixture("bob-\(tag)")
        #expect(try ana.run(["habit", "add", "read", "--start", "2026-10-01"]).status == 0)
        #expect(try ana.run(["record", "read", "--on", "2026-10-10"]).status == 0)
        #expect(try bob.run(["habit", "list", "--json"]).stdout == "{\"habits\":[]}\n")
        let foreign = try bob.run(["record", "read", "--on", "2026-10-10"])
        #expect(foreign.status == 1 && foreign.stderr == "Error: no habit named 'read'\n", "\(foreign.stderr)")
        // The same name is free for another user.
        #expect(try bob.run(["habit", "add", "read", "--start", "2026-10-05"]).status == 0)
        #expect(try bob.run(["stats", "read", "--json"]).stdout.contains(#""completedDays":0"#))
        #expect(try ana.run(["stats", "read", "--json"]).stdout.contains(#""completedDays":1"#))
        #expect(try bob.run(["habit", "delete", "read"]).status == 0)
        #expect(try ana.run(["habit", "list"]).stdout.contains("read"))
    }

    @Test("an export from SQLite imports into PostgreSQL with identical figures, and back")
    func moving() throws {
        let sqlite = try CLIFixture(now: "2026-10-20T21:00:00+09:00")
        #expect(try sqlite.run(["habit", "add", "read", "--start", "2026-10-01", "--streak", "grace"]).status == 0)
        #expect(try sqlite.run(["habit", "add", "gym", "--schedule", "times-per-week", "--schedule-params", #"{"times":2}"#, "--start", "2026-10-01"]).status == 0)
        for day in [1, 2, 3, 5, 6, 9, 12, 13, 15, 19] {
            #expect(try sqlite.run(["record", "read", "--on", String(format: "2026-10-%02d", day)]).status == 0)
            if day % 3 == 0 { #expect(try sqlite.run(["record", "gym", "--on", String(format: "2026-10-%02d", day)]).status == 0) }
        }
        #expect(try sqlite.run(["habit", "edit", "read", "--goal", "1", "--streak", "strict", "--from", "2026-10-10"]).status == 0)
        let export = try sqlite.run(["export", "--format", "json"]).stdout
        let file = sqlite.folder.path("backup.json")
        try export.write(toFile: file, atomically: true, encoding: .utf8)

        let postgres = try fixture("moved-\(UUID().uuidString)", now: "2026-10-20T21:00:00+09:00")
        let imported = try postgres.run(["import", file])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try postgres.run(["stats", "--json"]).stdout == sqlite.run(["stats", "--json"]).stdout)
        #expect(try postgres.run(["report", "week"]).stdout == sqlite.run(["report", "week"]).stdout)
        #expect(try postgres.run(["export", "--format", "json"]).stdout == export)
    }

    @Test("bad store choices are usage errors; the SQLite store holds only the default user")
    func choices() throws {
        let cli = try CLIFixture()
        let both = try runStackday(["--db", cli.db, "--database", "postgres://x/y", "habit", "list"])
        #expect(both.status == 64 && both.stderr.hasPrefix("Error: --db and --database name two stores; give one"), "\(both.stderr)")
        let other = try cli.run(["--user", "ana", "habit", "list"])
        #expect(other.status == 1 && other.stderr.contains("the SQLite store holds one user, 'default'"), "\(other.stderr)")
        let unreachable = try runStackday(["--database", "postgresql://nobody@/nothing?host=/nonexistent&port=1", "habit", "list"])
        #expect(unreachable.status == 1 && unreachable.stderr.hasPrefix("Error: cannot connect to PostgreSQL:"), "\(unreachable.stderr)")
        #expect(unreachable.stderr.split(separator: "\n").count == 1)
    }

    @Test("another user's habit is not there for any command", arguments: [
        (["habit", "show", "read"], "Error: no habit named 'read'"),
        (["habit", "edit", "read", "--goal", "2"], "Error: no habit named 'read'"),
        (["habit", "rename", "read", "book"], "Error: no habit named 'read'"),
        (["habit", "archive", "read"], "Error: no habit named 'read'"),
        (["habit", "delete", "read"], "Error: no habit named 'read'"),
        (["record", "read", "--on", "2026-10-10"], "Error: no habit named 'read'"),
        (["undo", "read", "--on", "2026-10-10"], "Error: no habit named 'read'"),
        (["skip", "read", "--on", "2026-10-09"], "Error: no habit named 'read'"),
        (["calendar", "read"], "Error: no habit named 'read'"),
        (["stats", "read"], "Error: no habit named 'read'"),
        (["policy", "history", "read"], "Error: no habit named 'read'"),
        (["policy", "rollback", "read"], "Error: no habit named 'read'"),
        (["policy", "simulate", "grace", "--habit", "read"], "Error: no habit named 'read'"),
    ])
    func isolationPerCommand(arguments: [String], message: String) throws {
        let tag = UUID().uuidString
        let owner = try fixture("owner-\(tag)"), other = try fixture("other-\(tag)")
        #expect(try owner.run(["habit", "add", "read", "--start", "2026-10-01", "--streak", "grace"]).status == 0)
        #expect(try owner.run(["habit", "edit", "read", "--streak", "strict", "--from", "2026-10-05"]).status == 0)
        #expect(try owner.run(["record", "read", "--on", "2026-10-10"]).status == 0)
        let before = try owner.run(["export", "--format", "json"]).stdout
        let result = try other.run(arguments)
        #expect(result.status == 1 && result.stderr.hasPrefix(message), "\(arguments): \(result.stderr)")
        // Nothing the other user reads lists it, and the owner's data is as it was.
        for listing in [["habit", "list", "--json"], ["today", "--json"], ["stats", "--json"]] {
            #expect(!(try other.run(listing).stdout.contains("\"read\"")), "\(listing)")
        }
        #expect(try other.run(["export", "--format", "json"]).stdout.contains("\"habits\":[\n]"))
        #expect(try owner.run(["export", "--format", "json"]).stdout == before)
    }
}
