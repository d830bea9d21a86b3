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

    @Test("bad store choices are usage errors; an unreachable server is one line")
    func choices() throws {
        let cli = try CLIFixture()
        let both = try runStackday(["--db", cli.db, "--database", "postgres://x/y", "habit", "list"])
        #expect(both.status == 64 && both.stderr.hasPrefix("Error: --db and --database name two stores; give one"), "\(both.stderr)")
        let unreachable = try runStackday(["--database", "postgresql://nobody@/nothing?host=/nonexistent&port=1", "habit", "list"])
        #expect(unreachable.status == 1 && unreachable.stderr.hasPrefix("Error: cannot connect to PostgreSQL:"), "\(unreachable.stderr)")
        #expect(unreachable.stderr.split(separator: "\n").count == 1)
    }

    @Test("a database StackDay cannot use is one line naming why, exit 1, and nothing written", arguments: [
        "no such role", "no such database", "another application", "newer schema", "bad URL",
    ])
    func unusableDatabase(kind: String) throws {
        let server = try commandServer.get()
        let name = "db_" + UUID().uuidString.prefix(8).lowercased()
        var url = server.url(database: name)
        var expected = ""
        var tables: String?
        switch kind {
        case "no such role":
            url = server.url(database: server.database, user: "nobody_" + name)
            expected = "Error: cannot connect to PostgreSQL:"
        case "no such database":
            expected = "Error: cannot connect to PostgreSQL:"
        case "another application":
            try server.psql("CREATE DATABASE \(name)")
            try server.psql("CREATE TABLE habits (id integer PRIMARY KEY, title text)", database: name)
            expected = "Error: schema public of this database holds another application's tables; StackDay will not change it"
            tables = "habits\n"
        case "newer schema":
            try server.psql("CREATE DATABASE \(name)")
            #expect(try runStackday(["--database", url, "habit", "list"]).status == 0)
            try server.psql("INSERT INTO schema_migrations (id, name) VALUES (99, 'from the future')", database: name)
            expected = "Error: this database was written by a newer StackDay (schema 99"
            tables = try server.psql("SELECT string_agg(tablename, ',' ORDER BY tablename) FROM pg_tables WHERE schemaname = 'public'", database: name)
        default:
            url = "postgresql://%zz@/x"
            expected = "Error: cannot connect to PostgreSQL:"
        }
        let result = try runStackday(["--database", url, "--now", "2026-10-11T20:00:00Z", "habit", "add", "read"])
        #expect(result.status == 1, "\(kind): \(result.stderr)")
        #expect(result.stderr.hasPrefix(expected) && result.stderr.split(separator: "\n").count == 1, "\(kind): \(result.stderr)")
        if let tables {
            let query = kind == "newer schema"
                ? "SELECT string_agg(tablename, ',' ORDER BY tablename) FROM pg_tables WHERE schemaname = 'public'"
                : "SELECT string_agg(tablename, ',') FROM pg_tables WHERE schemaname = 'public'"
            #expect(try server.psql(query, database: name) == tables, "\(kind): tables changed")
        }
        if kind == "newer schema" {
            #expect(try server.psql("SELECT count(*) FROM habits", database: name) == "0\n")
        }
    }
}
