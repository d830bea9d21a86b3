import Foundation
import Synchronization

/// The order in which this process's connections to one file take its write lock: first come,
/// first served.
///
/// SQLite's own wait for a busy write lock is a sleep and a retry, which a connection writing back
/// to back nearly always wins: a stream of sync pages could hold a single record's write off for
/// most of a second. Writers of one process take a ticket here before `BEGIN IMMEDIATE`, so a
/// write waits for the writes ahead of it, never for every write that comes after it. Other
/// processes on the file still wait through the busy timeout.
///
/// `@unchecked Sendable`: every property is read and written with `condition` locked.
final class WriterQueue: @unchecked Sendable {
    private let condition = NSCondition()
    /// The next ticket to hand out, and the one whose turn it is.
    private var issued: UInt64 = 0
    private var serving: UInt64 = 0
    /// Tickets whose holders stopped waiting: their turns are skipped.
    private var abandoned: Set<UInt64> = []

    /// Each file's queue, made by the first writer that asks.
    private static let queues = Mutex<[String: WriterQueue]>([:])

    /// The queue of the file at `path` (one per file in this process).
    static func forFile(_ path: String) -> WriterQueue {
        queues.withLock { queues in
            if let queue = queues[path] { return queue }
            let queue = WriterQueue()
            queues[path] = queue
            return queue
        }
    }

    /// Waits for a turn, at most `timeout` seconds; true when this caller now holds it (and must
    /// `leave`), false when it waited too long (it then goes on to SQLite's own wait).
    func enter(timeout: TimeInterval) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let ticket = issued
        issued += 1
        let deadline = Date(timeIntervalSinceNow: timeout)
        while serving != ticket {
            if !condition.wait(until: deadline), serving != ticket {
                abandoned.insert(ticket)
                return false
            }
        }
        return true
    }

    /// Whether a writer of this process waits for the turn after the current one.
    var hasWaiters: Bool {
        condition.lock()
        defer { condition.unlock() }
        return (serving + 1..<max(serving + 1, issued)).contains { !abandoned.contains($0) }
    }

    /// Ends the current turn and hands it to the next ticket still waiting.
    func leave() {
        condition.lock()
        serving += 1
        while abandoned.remove(serving) != nil { serving += 1 }
        condition.broadcast()
        condition.unlock()
    }
}
