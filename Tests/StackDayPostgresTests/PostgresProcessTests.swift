import Foundation
import Testing
import StackDay
import StackDayPostgres
import StackDayTestSupport

/// Several processes on one PostgreSQL server: concurrent writers, a killed import, a restart.
@Suite("PostgreSQL store across processes", .serialized)
struct PostgresProcessTests {
    let exerciser = Subprocess(product: "StoreExerciser")

    func completions(_ url: String, user: String) throws -> Int {
        let store = try PostgresHabitStore(url: url, owner: user)
        return try store.read { tx in try tx.habits.habit(named: "water").map { try tx.completions.completions(habitID: $0.id).count } ?? -1 }
    }

    /// Runs the exerciser processes at once and waits for them all; returns their exit statuses.
    func together(_ runs: [(arguments: [String], user: String)]) throws -> [Int32] {
        let processes = try runs.map { try exerciser.start($0.arguments, environment: ["STACKDAY_USER": $0.user]) }
        return processes.map { $0.waitUntilExit(); return $0.terminationStatus }
    }

    @Test("4 processes × 1000 records into one user and 4 × 250 into 4 users: exactly 4000 rows each way, each user sees its own")
    func concurrentWriters() throws {
        let server = try sharedServer.get()
        let tag = UUID().uuidString.prefix(8)
        let shared = "shared-\(tag)"
        #expect(try exerciser.run(["setup", server.url], environment: ["STACKDAY_USER": shared]).status == 0)
        #expect(try together((0..<4).map { _ in (["record", server.url, "1000"], shared) }) == [0, 0, 0, 0])
        #expect(try completions(server.url, user: shared) == 4000)

        let users = (0..<4).map { "user\($0)-\(tag)" }
        for user in users { #expect(try exerciser.run(["setup", server.url], environment: ["STACKDAY_USER": user]).status == 0) }
        #expect(try together(users.map { (["record", server.url, "250"], $0) }) == [0, 0, 0, 0])
        for user in users { #expect(try completions(server.url, user: user) == 250) }
        let rows = try server.psql("SELECT count(*) FROM completions WHERE user_id LIKE '%-\(tag)'")
        #expect(rows == "5000\n")
    }

    @Test("kill -9 in the middle of an import leaves the database sound; re-running completes it exactly")
    func killedImport() throws {
        let server = try sharedServer.get()
        let user = "import-\(UUID().uuidString.prefix(8))"
        let total = 60_000
        // Named, so that the test can wait for the server to finish with the killed client.
        let url = server.url + "&application_name=\(user)"
        #expect(try exerciser.run(["setup", server.url], environment: ["STACKDAY_USER": user]).status == 0)
        let process = try exerciser.start(["import", url, String(total)], environment: ["STACKDAY_USER": user])
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, process.isRunning, try completions(server.url, user: user) < 6_000 {
            usleep(20_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        // A COMMIT the client sent just before it died still completes on the server.
        while Date() < deadline, try server.psql("SELECT count(*) FROM pg_stat_activity WHERE application_name = '\(user)'") != "0\n" {
            usleep(20_000)
        }
        let partial = try completions(server.url, user: user)
        #expect(partial > 0 && partial < total && partial % 2_000 == 0, "\(partial)")

        let rerun = try exerciser.run(["import", server.url, String(total)], environment: ["STACKDAY_USER": user])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(rerun.stdout == "inserted \(total - partial), already present \(partial)\n")
        #expect(try completions(server.url, user: user) == total)
    }

    @Test("the server stopped and started between commands loses nothing committed; a store reconnects, in a transaction or not")
    func restart() throws {
        let server = try PostgresServer(tcp: true)
        #expect(try exerciser.run(["setup", server.tcpURL]).status == 0)
        #expect(try exerciser.run(["record", server.tcpURL, "100"]).status == 0)
        let store = try PostgresHabitStore(url: server.url)
        let another = try PostgresHabitStore(url: server.url)
        try server.stop()
        try server.start(tcp: true)
        #expect(try completions(server.tcpURL, user: "default") == 100)
        // The store opened before the restart finds its connection broken and resets it.
        #expect(try store.read { tx in try tx.habits.all().map(\.name) } == ["water"])
        // So does one whose first statement after it runs in no transaction.
        #expect(try another.readStatement { tx in try tx.habits.all().map(\.name) } == ["water"])
        #expect(try exerciser.run(["record", server.url, "10"]).status == 0)
        #expect(try completions(server.url, user: "default") == 110)
    }
}
