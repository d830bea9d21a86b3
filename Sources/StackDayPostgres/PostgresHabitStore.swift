import Foundation
import StackDay
import StackDaySQL

/// The habit store on PostgreSQL, scoped to one user (`owner`): every statement names it, so one
/// user never sees, changes or counts another's data.
///
/// A write is one transaction that first takes the user's advisory lock, so that one user's
/// writes run one at a time (as SQLite's do) while different users write in parallel; it runs
/// again, up to `retries` times, on a serialization failure or a deadlock. A read is one
/// `REPEATABLE READ READ ONLY` snapshot; the policy answers it computed are then kept in the
/// evaluation cache by a short write, for habits no write touched in between. A connection the server dropped is re-opened once
/// before a transaction starts. The connection is used by one thread at a time: give each
/// thread a store.
///
/// Given a replica (`readURL`, a streaming hot standby of the same database), a read runs there
/// when the replica has replayed every write of this user: the user's change counter
/// (`changeCount`) is read on both, and only an equal one lets the read run in the replica's
/// snapshot the counter was read in, so a
/// user always reads their own writes (and anyone's before them); otherwise, or when the replica
/// fails, the read runs on the primary. A read on the replica keeps no figures it computed (the
/// replica takes no writes); the primary's reads do. Only a store made by `scoped(to:)` reads
/// there: the store a server opens first answers who is asking (users, tokens, sessions), and
/// those reads always run on the primary, so a new session or a revoked token counts at once.
public final class PostgresHabitStore: HabitStore {
    public let owner: String
    public let retries: Int
    private let connection: PostgresConnection
    private let repositories: SQLStoreRepositories
    private let replica: Replica?
    /// Whether this store's reads may run on `replica` (a user's store, not the one that made it).
    private let readsReplica: Bool
    /// This store's repositories over the replica's connection, made on its first read there.
    private lazy var replicaRepositories: SQLStoreRepositories? = replica.map { replica in
        SQLStoreRepositories(executor: replica.connection, owner: owner, bulk: PostgresBulkCompletions(connection: replica.connection, owner: owner),
                             clock: clock)
    }

    /// A read-only standby's connection.
    private final class Replica {
        let connection: PostgresConnection
        init(connection: PostgresConnection) { self.connection = connection }
    }

    /// Connects to `url` (`postgres://…` or `postgresql://…`, or any libpq connection string)
    /// and brings the schema up to date. Throws `PostgresError`.
    /// `clock`, when given, is the one the sync change log stamps this store's writes by; without
    /// one, the server's.
    /// `readURL`, when given, is a streaming replica of `url`'s database that reads may use.
    public convenience init(url: String, readURL: String? = nil, owner: String = "default", retries: Int = 5, clock: (any Clock)? = nil) throws {
        let connection = try PostgresConnection(url: url)
        try PostgresMigrator(connection: connection).prepare()
        let replica = try readURL.map { Replica(connection: try PostgresConnection(url: $0)) }
        self.init(connection: connection, replica: replica, readsReplica: false, owner: owner, retries: retries, clock: clock)
    }

    private let clock: (any Clock)?

    private init(connection: PostgresConnection, replica: Replica?, readsReplica: Bool, owner: String, retries: Int, clock: (any Clock)?) {
        self.owner = owner
        self.retries = retries
        self.connection = connection
        self.replica = replica
        self.readsReplica = readsReplica
        self.clock = clock
        repositories = SQLStoreRepositories(executor: connection, owner: owner, bulk: PostgresBulkCompletions(connection: connection, owner: owner),
                                            clock: clock)
    }

    /// The same connections acting for `owner`: use it on the thread that uses this store.
    public func scoped(to owner: String) -> any HabitStore {
        owner == self.owner ? self : PostgresHabitStore(connection: connection, replica: replica, readsReplica: replica != nil, owner: owner,
                                                        retries: retries, clock: clock)
    }

    public func write<T>(_ body: (any HabitTransaction) throws -> T) throws -> T {
        // READ COMMITTED under the user's lock: every statement sees what the writer before it
        // committed, and no other writer of this user runs in between.
        try transaction(Self.beginWrite, { tx in
            try repositories.sync.startWrite()
            return try body(tx)
        }) {
            try repositories.sync.finishWrite()
            try connection.execute("""
                INSERT INTO owner_changes (user_id, generation) VALUES ($1, 1) ON CONFLICT (user_id) DO UPDATE SET generation = owner_changes.generation + 1
                """, [.text(owner)])
            try repositories.cache.writeStaged()
        }
    }

    public func read<T>(_ body: (any HabitTransaction) throws -> T) throws -> T {
        if readsReplica, let replica, let result = try onReplica(replica, body) { return result }
        let result = try transaction(["BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"], body)
        if repositories.cache.hasStaged {
            // A cache that cannot be written now (a lost connection, a timeout) stays as it was.
            if (try? transaction(Self.beginWrite, { _ in }, beforeCommit: { try repositories.cache.writeStaged() })) == nil { repositories.cache.discardStaged() }
        }
        return result
    }

    /// The statement alone, on the primary, in no transaction: PostgreSQL runs it in one
    /// snapshot of its own, and the BEGIN and COMMIT round trips are saved (a server asks whose a
    /// token is on every request).
    public func readStatement<T>(_ body: (any HabitTransaction) throws -> T) throws -> T {
        defer { if repositories.cache.hasStaged { repositories.cache.discardStaged() } }
        do {
            return try body(repositories.transaction)
        } catch where connection.isBroken {
            // The server went away since the last statement (a restart, a dropped link): once
            // more on a new connection.
            try connection.reset()
            return try body(repositories.transaction)
        }
    }

    /// `body` on the replica when it has replayed this user's every write; nil to read on the
    /// primary instead (the replica behind, unreachable or failing). The replica's counter is read
    /// in the snapshot the read then uses, so that snapshot holds every write the primary's
    /// counter counted; a replica behind rolls its snapshot back unused.
    private func onReplica<T>(_ replica: Replica, _ body: (any HabitTransaction) throws -> T) throws -> T? {
        guard let repositories = replicaRepositories else { return nil }
        do {
            if replica.connection.isBroken { try replica.connection.reset() }
            let wanted = try changeCount()
            try replica.connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            do {
                guard try Self.changeCount(owner, on: replica.connection) == wanted else {
                    try replica.connection.execute("ROLLBACK")
                    PostgresReadRouting.count(onReplica: false)
                    return nil
                }
                // Figures computed here are not kept: the replica takes no writes.
                defer { repositories.cache.discardStaged() }
                let result = try body(repositories.transaction)
                try replica.connection.execute("COMMIT")
                PostgresReadRouting.count(onReplica: true)
                return result
            } catch {
                _ = try? replica.connection.execute("ROLLBACK")
                throw error
            }
        } catch is PostgresError {
            // A replica that fails (a conflict with recovery cancelled the read, a lost link):
            // the primary answers instead.
            PostgresReadRouting.count(onReplica: false)
            return nil
        }
    }

    private static let beginWrite = ["BEGIN ISOLATION LEVEL READ COMMITTED", "SELECT pg_advisory_xact_lock(\(lockClass), hashtext($1))"]

    public func changeCount() throws -> Int64? {
        try Self.changeCount(owner, on: connection)
    }

    /// The database's own id: a database restored into another (`pg_restore`, a dump loaded
    /// elsewhere) has another.
    public func storeIdentity() throws -> String? {
        try connection.scalar("SELECT oid::text || '@' || current_database() FROM pg_database WHERE datname = current_database()", [])
    }

    /// Every write moves a habit's counter or the user's (a deleted habit's moves into the user's).
    private static func changeCount(_ owner: String, on connection: PostgresConnection) throws -> Int64 {
        try connection.scalar("""
            SELECT coalesce((SELECT generation FROM owner_changes WHERE user_id = $1), 0)
                 + coalesce((SELECT sum(generation) FROM habit_generations WHERE user_id = $1), 0)
            """, [.text(owner)]).flatMap { Int64($0) } ?? 0
    }

    /// The first key of the two-key advisory locks that serialize each user's writes.
    static let lockClass: Int32 = 0x5344 // "SD"

    private func begin(_ statements: [String]) throws {
        for statement in statements {
            try connection.execute(statement, statement.contains("$1") ? [.text(owner)] : [])
        }
    }

    private func transaction<T>(
        _ begin: [String], _ body: (any HabitTransaction) throws -> T, beforeCommit: () throws -> Void = {}
    ) throws -> T {
        var attempt = 0
        while true {
            attempt += 1
            do {
                try self.begin(begin)
            } catch where connection.isBroken {
                // The server went away since the last statement (a restart, a dropped link).
                try connection.reset()
                try self.begin(begin)
            }
            do {
                let result = try body(repositories.transaction)
                try beforeCommit()
                try CommitGate.check()
                try connection.execute("COMMIT")
                return result
            } catch let error as PostgresError where error.isRetryable && attempt <= retries {
                _ = try? connection.execute("ROLLBACK")
                repositories.cache.discardStaged()
                // Back off a little, longer each time, before running the transaction again.
                usleep(UInt32(1_000 * attempt * attempt))
            } catch {
                _ = try? connection.execute("ROLLBACK")
                repositories.cache.discardStaged()
                throw error
            }
        }
    }
}
