import Foundation
import Synchronization

/// How this process's reads went where a store has a replica (`PostgresHabitStore(readURL:)`):
/// run on the replica, or on the primary because the replica had not replayed the user's writes
/// (or failed). Counted across every store, for the server's metrics.
public enum PostgresReadRouting {
    private static let counts = Mutex((replica: 0, primary: 0))

    static func count(onReplica: Bool) {
        counts.withLock { if onReplica { $0.replica += 1 } else { $0.primary += 1 } }
    }

    /// Reads on the replica, and on the primary for want of it, so far.
    public static var reads: (replica: Int, primary: Int) { counts.withLock { $0 } }

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
