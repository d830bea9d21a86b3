import Foundation
import Testing
import StackDayTestSupport

/// Two servers on one PostgreSQL primary, one of them reading from a streaming replica
/// (`--read-database`): the writing user reads their writes at once, from the primary while the
/// replica has not replayed them, and from the replica once it has.
@Suite("a server reading from a streaming replica", .serialized)
struct ReadReplicaTests {
    /// The reader's `stackday_replica_reads_total`: reads run on the replica, and on the primary.
    func reads(_ server: ServerProcess) throws -> (replica: Int, primary: Int) {
        // The metrics listener says its address just after the server's: wait for the line.
        func port() -> Int? {
            let log = server.log()
            return log.range(of: "metrics on http://127.0.0.1:").flatMap { Int(log[$0.upperBound...].prefix { $0.isNumber }) }
        }
        _ = eventually(10) { port() != nil }
        guard let port = port() else { throw HTTPClientError("no metrics address in the log: \(server.log())") }
        let text = try HTTPClient(port: port).send("GET", "/metrics").body
        func value(_ on: String) -> Int {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("stackday_replica_reads_total{on=\"\(on)\"}") }) else { return -1 }
            return Int(line.split(separator: " ").last ?? "") ?? -1
        }
        return (value("replica"), value("primary"))
    }

    /// Waits until `condition` holds, for at most `seconds`.
    func eventually(_ seconds: Double = 20, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(50_000)
        }
        return try condition()
    }

    @Test("read-your-writes: with replay paused the writer still reads each write at once; replayed, the replica answers the reads")
    func readYourWrites() throws {
        let primary = try PostgresServer()
        let replica = try PostgresServer(replicaOf: primary)
        let now = "2026-10-11T20:00:00+09:00"
        let cli = try CLIFixture(now: now, database: primary.url, user: "ana")
        let token = try cli.run(["user", "add", "ana", "--tz", "+09:00"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try cli.run(["habit", "add", "water", "--goal", "8", "--unit", "cups", "--start", "2026-10-01"]).status == 0)
        #expect(try eventually { try replica.psql("SELECT count(*) FROM habits").hasPrefix("1") }, "the replica never replayed the habit")

        let writer = try ServerProcess(executable: stackday.executable, arguments: ["--database", primary.url, "--now", now, "--no-cache"])
        let reader = try ServerProcess(executable: stackday.executable, arguments: ["--database", primary.url, "--now", now, "--no-cache"],
                                       serveArguments: ["--read-database", replica.url, "--metrics-listen", "127.0.0.1:0"])
        func total(_ server: ServerProcess) throws -> String? {
            let answer = try server.client.send("GET", "/v1/habits/water/records?from=2026-10-01&to=2026-10-11", token: token)
            guard answer.status == 200 else { return "status \(answer.status): \(answer.body)" }
            return String(answer.body.components(separatedBy: #""amount":"#).count - 1)
        }

        // Replayed: the reader's reads run on the replica.
        let start = try reads(reader)
        for _ in 0..<10 { #expect(try total(reader) == "0") }
        let served = try reads(reader)
        #expect(served.replica >= start.replica + 10 && served.primary == start.primary, "\(start) → \(served)")

        // Paused: every write is read back at once, through either server, from the primary; the
        // replica, behind, answers none of the reader's reads.
        try replica.psql("SELECT pg_wal_replay_pause()", database: "postgres")
        for (count, server) in [(1, reader), (2, writer), (3, reader)] {
            let posted = try server.client.send("POST", "/v1/habits/water/records", token: token, body: #"{"amount":1}"#)
            #expect(posted.status == 201, "\(posted.body)")
            #expect(try total(reader) == String(count), "the reader lost the write it follows")
            #expect(try total(writer) == String(count))
        }
        #expect(try replica.psql("SELECT count(*) FROM completions").hasPrefix("0"), "replay was not paused")
        let paused = try reads(reader)
        #expect(paused.replica == served.replica && paused.primary >= served.primary + 3, "\(served) → \(paused)")

        // Resumed: the replica catches up and answers again.
        try replica.psql("SELECT pg_wal_replay_resume()", database: "postgres")
        #expect(try eventually { try replica.psql("SELECT count(*) FROM completions").hasPrefix("3") })
        for _ in 0..<10 { #expect(try total(reader) == "3") }
        #expect(try reads(reader).replica >= paused.replica + 10)
        #expect(reader.stop() == 0 && writer.stop() == 0)
    }

    @Test("--read-database is refused without a PostgreSQL --database, or with a URL that is not one, and the server does not start", arguments: [
        (["serve", "--read-database", "postgres://nowhere/x"], "--read-database needs a PostgreSQL --database"),
    ])
    func refused(arguments: [String], message: String) throws {
        let cli = try CLIFixture()
        let result = try cli.run(arguments)
        #expect(result.status == 64 && result.stderr.hasPrefix("Error: " + message), "\(result.stderr)")
    }
}
