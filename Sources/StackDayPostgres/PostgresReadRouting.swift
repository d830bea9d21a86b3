import Foundation

/// How this process's reads went where a store has a replica (`PostgresHabitStore(readURL:)`):
/// run on the replica, or on the primary because the replica had not replayed the user's writes
/// (or failed). Counted across every store, for the server's metrics.
public enum PostgresReadRouting {
    private static let lock = NSLock()
    private nonisolated(unsafe) static var counts = (replica: 0, primary: 0)

    static func count(onReplica: Bool) {
        lock.withLock { if onReplica { counts.replica += 1 } else { counts.primary += 1 } }
    }

    /// Reads on the replica, and on the primary for want of it, so far.
    public static var reads: (replica: Int, primary: Int) { lock.withLock { counts } }

    /// The counts in Prometheus' text format.
    public static var metricsText: String {
        let now = reads
        return """
            # HELP stackday_replica_reads_total Reads of a server with a replica, by where they ran (primary: the replica had not replayed the user's writes).
            # TYPE stackday_replica_reads_total counter
            stackday_replica_reads_total{on="replica"} \(now.replica)
            stackday_replica_reads_total{on="primary"} \(now.primary)

            """
    }
}
