import Foundation
import Synchronization

/// The order in which this process's connections to one file take its write lock: single writes
/// first come, first served, and a long write in parts behind them.
///
/// SQLite's own wait for a busy write lock is a sleep and a retry, which a connection writing back
/// to back nearly always wins: a stream of sync pages could hold a single record's write off for
/// most of a second. Writers of one process take a ticket here before `BEGIN IMMEDIATE`, so a
/// write waits for the writes ahead of it, never for every write that comes after it. A `bulk`
/// ticket (a part of a sync's push, which ends its transaction early when another waits) is
/// served after every `single` one waiting, unless it has waited `bulkPatience` already: then it
/// takes its place by age, so a push goes on while single writes keep coming. Other processes on
/// the file still wait through the busy timeout.
///
/// `@unchecked Sendable`: every property is read and written with `condition` locked.
final class WriterQueue: @unchecked Sendable {
    /// What kind of write a ticket is for.
    enum Rank: Sendable {
        /// A write in one transaction (a record, a habit, an import's slice, a cache's answers).
        case single
        /// One part of a long write that yields to whoever waits (`ServeSync`'s slices).
        case bulk
    }

    /// A waiting ticket's rank, and since when it waits (`DispatchTime` nanoseconds).
    private struct Waiter {
        let rank: Rank
        let since: UInt64
    }

    /// How long a `bulk` ticket lets single writes go ahead of it, in nanoseconds.
    let bulkPatience: UInt64

    private let condition = NSCondition()
    /// The next ticket to hand out.
    private var issued: UInt64 = 0
    /// The ticket whose turn it is; nil when nobody writes.
    private var holder: UInt64?
    /// Tickets waiting for their turn.
    private var waiting: [UInt64: Waiter] = [:]
    /// When a ticket last had to wait (`DispatchTime` nanoseconds; 0 never).
    private var lastWait: UInt64 = 0

    /// A queue whose bulk tickets wait `bulkPatience` nanoseconds at most behind single ones
    /// (a tenth of a second by default: past it a push goes on while single writes keep coming).
    init(bulkPatience: UInt64 = 100_000_000) {
        self.bulkPatience = bulkPatience
    }

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
    func enter(_ rank: Rank = .single, timeout: TimeInterval) -> Bool {
        wait(for: take(rank), until: Date(timeIntervalSinceNow: timeout))
    }

    /// Takes a ticket at `rank` without waiting: the turn itself when nobody holds it, else a
    /// place among the waiting (`enter` is this, then `wait(for:until:)`).
    func take(_ rank: Rank = .single) -> UInt64 {
        condition.lock()
        defer { condition.unlock() }
        let ticket = issued
        issued += 1
        if holder == nil {
            holder = ticket
        } else {
            lastWait = DispatchTime.now().uptimeNanoseconds
            waiting[ticket] = Waiter(rank: rank, since: lastWait)
        }
        return ticket
    }

    /// Waits until `ticket`'s turn comes, or `deadline`; true when it holds the turn (and must
    /// `leave`), false when the ticket was given up.
    func wait(for ticket: UInt64, until deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while holder != ticket {
            if !condition.wait(until: deadline), holder != ticket {
                waiting[ticket] = nil
                return false
            }
        }
        return true
    }

    /// Whether a writer of this process waits for the turn after the current one.
    var hasWaiters: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !waiting.isEmpty
    }

    /// Whether a writer of this process had to wait for a turn in the last `nanoseconds`.
    func waited(within nanoseconds: UInt64) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return lastWait > 0 && DispatchTime.now().uptimeNanoseconds &- lastWait < nanoseconds
    }

    /// Ends the current turn and hands it to the next ticket (`nextTurn`).
    func leave() {
        condition.lock()
        holder = nextTurn()
        if let holder { waiting[holder] = nil }
        condition.broadcast()
        condition.unlock()
    }

    /// The oldest single write waiting, or a bulk one that waited its patience out, whichever
    /// came first; else the oldest bulk one.
    private func nextTurn() -> UInt64? {
        let now = DispatchTime.now().uptimeNanoseconds
        var first: UInt64?
        var firstAny: UInt64?
        for (ticket, waiter) in waiting {
            if ticket < firstAny ?? .max { firstAny = ticket }
            let due = waiter.rank == .single || now &- waiter.since >= bulkPatience
            if due, ticket < first ?? .max { first = ticket }
        }
        return first ?? firstAny
    }
}
