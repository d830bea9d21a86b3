import CSQLite
import Foundation
import Synchronization

/// Copies a file's write-ahead log back into it from a thread of its own, so that no write pays
/// for it: with SQLite's automatic checkpoint, the commit that takes the log past 1,000 pages
/// copies them and syncs the file, and on a busy server that is some other user's small write.
///
/// One thread per file in a process, started by the first connection that asks
/// (`SQLiteHabitStore.checkpointInBackground`); those connections stop checkpointing on commit.
/// A passive checkpoint waits for no one: it copies what no reader still needs, every 50 ms.
///
enum WALCheckpointer {
    /// The files whose thread this process started.
    private static let started = Mutex<Set<String>>([])

    /// How often the log is copied back.
    static let interval: TimeInterval = 0.05

    /// Starts the file's checkpoint thread unless this process has one.
    static func start(for path: String) {
        let new = started.withLock { $0.insert(path).inserted }
        guard new else { return }
        Thread.detachNewThread {
            // Below the server's workers: copying the log back is never what someone waits for.
            _ = stackday_lower_thread_priority(10)
            // A connection knows the file is in WAL mode once it has read it.
            guard let database = try? Database(path: path), (try? database.scalarText("PRAGMA journal_mode")) == "wal" else { return }
            while true {
                Thread.sleep(forTimeInterval: interval)
                var logged: Int32 = 0, copied: Int32 = 0
                _ = sqlite3_wal_checkpoint_v2(database.handle, nil, SQLITE_CHECKPOINT_PASSIVE, &logged, &copied)
            }
        }
    }
}
