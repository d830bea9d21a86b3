import Foundation
import Testing
import StackDay
import StackDayTestSupport

/// `stackday user …` on either store: tokens shown once and kept only as hashes, users removed
/// with their data and nothing of anyone else's.
@Suite("stackday user")
struct UserCommandTests {
    typealias Store = OwnerCommandTests.Store

    /// An administrator's fixture on a store of its own (a SQLite file, or a fresh PostgreSQL database).
    func admin(_ store: Store) throws -> CLIFixture {
        switch store {
        case .sqlite:
            return try CLIFixture()
        case .postgres:
            let server = try commandServer.get()
            let name = "users_" + UUID().uuidString.prefix(8).lowercased()
            try server.psql("CREATE DATABASE \(name)")
            return try CLIFixture(database: server.url(database: name))
        }
    }

    func isToken(_ text: String) -> Bool {
        text.hasPrefix("sd_") && text.count == 67 && text.dropFirst(3).allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    @Test("passwd takes the password from standard input, stores only its Argon2id hash, and refuses a short one", arguments: Store.allCases)
    func passwd(store: Store) throws {
        let cli = try admin(store)
        #expect(try cli.run(["user", "add", "ana"]).status == 0)
        let set = try cli.run(["user", "passwd", "ana"], input: "correct horse battery\n")
        #expect(set.status == 0 && set.stdout.contains("Set the password of 'ana'"), "\(set.stderr)")
        let listed = try cli.run(["user", "list", "--json"]).stdout
        #expect(listed.contains(#""hasPassword":true"#) && !listed.contains("argon2") && !listed.contains("correct horse"))
        let short = try cli.run(["user", "passwd", "ana"], input: "short\n")
        #expect(short.status == 64 && short.stderr.contains("at least 8 characters"), "\(short.stderr)")
        let empty = try cli.run(["user", "passwd", "ana"], input: "")
        #expect(empty.status == 1 && empty.stderr.contains("nothing was changed"))
        let nobody = try cli.run(["user", "passwd", "nobody"], input: "correct horse battery\n")
        #expect(nobody.status != 0 && nobody.stderr.contains("nobody"))
    }

    @Test("feed prints the calendar feed's path, the same until --rotate gives a new one; export --format ics writes the feed", arguments: Store.allCases)
    func feed(_ store: Store) throws {
        let cli = try admin(store)
        #expect(try cli.run(["user", "add", "ana"]).status == 0)
        let first = try cli.run(["user", "feed", "ana"]).stdout.trimmingCharacters(in: .newlines)
        #expect(first.wholeMatch(of: /\/v1\/feeds\/fd_[0-9a-f]{64}\.ics/) != nil, "\(first)")
        #expect(try cli.run(["user", "feed", "ana"]).stdout.trimmingCharacters(in: .newlines) == first)
        let rotated = try cli.run(["user", "feed", "ana", "--rotate", "--json"]).stdout
        #expect(rotated.contains("\"path\":\"/v1/feeds/fd_") && !rotated.contains(first))
        let missing = try cli.run(["user", "feed", "nobody"])
        #expect(missing.status != 0 && missing.stderr.contains("nobody"))
        #expect(try cli.run(["--user", "ana", "habit", "add", "read", "--schedule", "mon wed fri", "--remind", "21:00", "--remind", "07:00"]).status == 0)
        let ics = try cli.run(["--user", "ana", "export", "--format", "ics"]).stdout
        #expect(ics.hasPrefix("BEGIN:VCALENDAR\r\n") && ics.contains("RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR\r\n") && ics.contains("TRIGGER;RELATED=START:PT21H\r\n"))
        // Only a repeatable option's values all count; another's last one does, as before.
        #expect(try cli.run(["--user", "ana", "habit", "add", "tea", "--goal", "1", "--goal", "3"]).stdout.contains("goal 3"))
        // Reminder times go with an export and come back with an import.
        let archive = try cli.run(["--user", "ana", "export"]).stdout
        #expect(archive.contains(#""remind":["07:00","21:00"]"#))
        let other = try CLIFixture()
        let file = other.folder.path("ana.json")
        try archive.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try other.run(["import", file]).status == 0)
        #expect(try other.run(["export"]).stdout.contains(#""remind":["07:00","21:00"]"#))
    }

    @Test("add prints a token once; list shows the user without it; token replaces it", arguments: Store.allCases)
    func tokens(store: Store) throws {
        let cli = try admin(store)
        let added = try cli.run(["--tz", "Asia/Seoul", "--day-starts-at", "04:30", "user", "add", "ana"])
        #expect(added.status == 0, "\(added.stderr)")
        let token = added.stdout.trimmingCharacters(in: .newlines)
        #expect(isToken(token), "\(added.stdout)")
        #expect(added.stderr == "Added user 'ana' (Asia/Seoul, days start at 04:30); its token, shown only now:\n")
        let listed = try cli.run(["user", "list", "--json"])
        #expect(listed.stdout.contains(#""name":"ana""#) && listed.stdout.contains(#""timeZone":"Asia/Seoul""#)
                && listed.stdout.contains(#""dayStartsAt":"04:30""#), "\(listed.stdout)")
        let table = try cli.run(["user", "list"]).stdout
        #expect(!listed.stdout.contains(token) && !table.contains(token) && table.contains("Asia/Seoul"))
        let replaced = try cli.run(["user", "token", "ana"])
        let second = replaced.stdout.trimmingCharacters(in: .newlines)
        #expect(replaced.status == 0 && isToken(second) && second != token, "\(replaced.stdout)")
        if store == .sqlite {
            // Only the hash of the current token is kept; neither token's text is anywhere in the file.
            #expect(SQLiteShell.run(cli.db, "SELECT token_sha256 FROM users WHERE name = 'ana'") == [UserToken.sha256(of: second)])
            _ = SQLiteShell.run(cli.db, "PRAGMA wal_checkpoint(TRUNCATE)")
            let bytes = try #require(try cli.databaseBytes())
            #expect(bytes.range(of: Data(token.utf8)) == nil)
            #expect(bytes.range(of: Data(second.utf8)) == nil)
        }
    }

    @Test("remove takes the user's habits, records and scripts and leaves everyone else's", arguments: Store.allCases)
    func remove(store: Store) throws {
        let cli = try admin(store)
        #expect(try cli.run(["user", "add", "ana"]).status == 0)
        #expect(try cli.run(["user", "add", "bob"]).status == 0)
        for user in ["ana", "bob"] {
            #expect(try cli.run(["--user", user, "habit", "add", "read", "--start", "2026-10-01"]).status == 0)
            #expect(try cli.run(["--user", user, "record", "read", "--on", "2026-10-02"]).status == 0)
            #expect(try cli.run(["--user", user, "record", "read", "--on", "2026-10-03"]).status == 0)
        }
        let removed = try cli.run(["user", "remove", "ana", "--yes"])
        #expect(removed.status == 0 && removed.stdout == "Removed user 'ana' with 1 habit and 2 records.\n", "\(removed.stdout)\(removed.stderr)")
        #expect(try cli.run(["--user", "ana", "habit", "list", "--json"]).stdout == "{\"habits\":[],\"next\":null}\n")
        #expect(try cli.run(["--user", "bob", "stats", "read", "--json"]).stdout.contains(#""completedDays":2"#))
        #expect(try cli.run(["user", "list", "--json"]).stdout.contains(#""name":"bob""#))
        #expect(!(try cli.run(["user", "list", "--json"]).stdout.contains(#""name":"ana""#)))
    }

    @Test("bad input: a taken or unknown name is one line and exit 1, a bad name or zone a usage error; nothing is written", arguments: [
        (["user", "add", "ana"], 1, "Error: a user named 'ana' already exists\n"),
        (["user", "remove", "nobody"], 1, "Error: no user named 'nobody'\n"),
        (["user", "token", "nobody"], 1, "Error: no user named 'nobody'\n"),
        (["user", "add", " spaced"], 64, "Error: invalid value for <name>: a user name has 1 to 100 printable characters"),
        (["--tz", "Mars/Olympus", "user", "add", "bob"], 64, "Error: invalid value for --tz: unknown time zone 'Mars/Olympus'"),
    ] as [([String], Int32, String)])
    func badInput(arguments: [String], status: Int32, message: String) throws {
        let cli = try CLIFixture()
        #expect(try cli.run(["user", "add", "ana"]).status == 0)
        let before = try cli.run(["user", "list", "--json"]).stdout
        let result = try cli.run(arguments)
        #expect(result.status == status && result.stderr.hasPrefix(message), "\(arguments): \(result.stderr)")
        let after = try cli.run(["user", "list", "--json"]).stdout
        #expect(after == before)
    }
}
