import Foundation
import StackDayTestSupport

/// A scratch database and policy folder, with `stackday` run against them at a fixed time.
final class CLIFixture {
    let folder: TemporaryFolder
    var now: String

    /// With `database`, commands name that store (`--database URL`) and `user` instead of the
    /// scratch SQLite file.
    let database: String?
    let user: String?
    /// Whatever must live as long as this fixture (another fixture whose folder holds the store).
    var keepAlive: AnyObject?

    init(now: String = "2026-10-11T20:00:00+09:00", database: String? = nil, user: String? = nil) throws {
        folder = try TemporaryFolder()
        self.now = now
        self.database = database
        self.user = user
        try FileManager.default.createDirectory(atPath: folder.path("policies"), withIntermediateDirectories: true)
    }

    /// Another user of `other`'s store and policy folder, at its time.
    init(sharing other: CLIFixture, user: String) {
        folder = other.folder
        now = other.now
        database = other.database
        self.user = user
        keepAlive = other
    }

    var db: String { folder.path("stackday.sqlite") }

    /// Runs with `--db`, `--policies`, `--tz +09:00` and `--now` given before the command.
    @discardableResult
    func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> Subprocess.Result {
        let store = database.map { ["--database", $0] } ?? ["--db", db]
        let owner = user.map { ["--user", $0] } ?? []
        return try runStackday(store + owner + ["--policies", folder.path("policies"), "--tz", "+09:00", "--now", now] + arguments,
                               environment: environment, input: input)
    }

    /// Runs `command` on a pseudo-terminal (`script`), typing `answer`: stdout and stderr both
    /// reach the terminal, so the result's stdout holds both.
    func onTerminal(_ command: [String], answer: String = "", environment: [String: String] = [:]) throws -> Subprocess.Result {
        let line = ([stackday.executable.path, "--db", db, "--tz", "+09:00", "--now", now] + command)
            .map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        return try Subprocess(executable: URL(fileURLWithPath: "/usr/bin/script"))
            // No answer: standard input is /dev/null. `script` waits two seconds after an input that
            // ends before the command does, so a line is sent only when there is one to type.
            .run(["-qec", line, "/dev/null"], environment: environment, input: answer.isEmpty ? nil : answer + "\n", timeout: 60)
    }

    /// The database file's bytes (after a checkpoint, so the WAL holds nothing), to prove a
    /// failed command changed nothing.
    func databaseBytes() throws -> Data? {
        guard FileManager.default.fileExists(atPath: db) else { return nil }
        return try Data(contentsOf: URL(fileURLWithPath: db))
    }

    func writePolicy(_ name: String, _ source: String) throws {
        try source.write(toFile: folder.path("policies/\(name).lua"), atomically: true, encoding: .utf8)
    }

    /// The database file's bytes plus its WAL, to prove a failed command wrote nothing.
    func snapshot() throws -> [String] {
        let result = try run(["export", "--format", "csv"])
        return [result.stdout]
    }
}
