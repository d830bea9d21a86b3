import Foundation
import StackDay

/// The habit store on PostgreSQL, scoped to one user (`owner`): every statement names it, so one
/// user never sees, changes or counts another's data.
///
/// A write is one `SERIALIZABLE` transaction, run again (up to `retries` times) when the server
/// reports a serialization failure or a deadlock; a read is one `REPEATABLE READ READ ONLY`
/// snapshot. The connection is used by one thread at a time: give each thread a store.
public final class PostgresHabitStore: HabitStore {
    public let owner: String
    public let retries: Int
    private let connection: PostgresConnection
    private let repositories: Repositories

    /// Connects to `url` (`postgres://…` or `postgresql://…`, or any libpq connection string)
    /// and brings the schema up to date. Throws `PostgresError`.
    public init(url: String, owner: String = "default", retries: Int = 5) throws {
        self.owner = owner
        self.retries = retries
        connection = try PostgresConnection(url: url)
        try PostgresMigrator(connection: connection).prepare()
        repositories = Repositories(
            habits: PostgresHabitRepository(connection: connection, owner: owner),
            completions: PostgresCompletionRepository(connection: connection, owner: owner),
            skips: PostgresSkipRepository(connection: connection, owner: owner),
            scripts: PostgresPolicyScriptRepository(connection: connection, owner: owner)
        )
    }

    public func write<T>(_ body: (any HabitTransaction) throws -> T) throws -> T {
        try transaction("BEGIN ISOLATION LEVEL SERIALIZABLE", body)
    }

    public func read<T>(_ body: (any HabitTransaction) throws -> T) throws -> T {
        try transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    private func transaction<T>(_ begin: String, _ body: (any HabitTransaction) throws -> T) throws -> T {
        var attempt = 0
        while true {
            attempt += 1
            try connection.ensureConnected()
            try connection.execute(begin)
            do {
                let result = try body(repositories)
                try connection.execute("COMMIT")
                return result
            } catch let error as PostgresError where error.isRetryable && attempt <= retries {
                _ = try? connection.execute("ROLLBACK")
                // Back off a little, longer each time, before running the transaction again.
                usleep(UInt32(1_000 * attempt * attempt))
            } catch {
                _ = try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// The connection's repositories; handed out only inside a transaction.
    private struct Repositories: HabitTransaction {
        let habits: any HabitRepository
        let completions: any CompletionRepository
        let skips: any SkipRepository
        let scripts: any PolicyScriptRepository
    }
}
