import Foundation
import Synchronization
import Testing
@testable import StackDaySQLite

@Suite("the order writers of one file take its write lock in")
struct WriterQueueTests {
    /// Tickets taken in the order given while the test holds the turn, each then waited for on a
    /// thread of its own; the order the turns came in once the test leaves.
    func order(_ queue: WriterQueue, _ ranks: [(String, WriterQueue.Rank)]) throws -> [String] {
        #expect(queue.enter(timeout: 1))
        let served = Mutex<[String]>([])
        let done = DispatchGroup()
        for (name, rank) in ranks {
            let ticket = queue.take(rank)
            done.enter()
            Thread.detachNewThread {
                if queue.wait(for: ticket, until: Date(timeIntervalSinceNow: 10)) {
                    served.withLock { $0.append(name) }
                    queue.leave()
                }
                done.leave()
            }
        }
        #expect(queue.hasWaiters)
        queue.leave()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(!queue.hasWaiters)
        return served.withLock { $0 }
    }

    @Test("single writes go ahead of a push's parts that wait, and in the order they came")
    func singleFirst() throws {
        let queue = WriterQueue()
        #expect(!queue.waited(within: 60_000_000_000))
        let served = try order(queue, [("push", .bulk), ("record", .single), ("other push", .bulk), ("habit", .single)])
        #expect(served == ["record", "habit", "push", "other push"])
        // A push on this file now goes in its smallest parts (`HabitStore.writersContended`).
        #expect(queue.waited(within: 60_000_000_000))
    }

    @Test("a push's part that waited its patience out takes its place by age")
    func patience() throws {
        let queue = WriterQueue(bulkPatience: 0)
        let served = try order(queue, [("push", .bulk), ("record", .single), ("other push", .bulk)])
        #expect(served == ["push", "record", "other push"])
    }

    @Test("a writer that waits too long gives its ticket up, and the turn passes it by")
    func timeout() throws {
        let queue = WriterQueue()
        #expect(queue.enter(timeout: 1))
        #expect(!queue.waited(within: 60_000_000_000))
        #expect(!queue.enter(.single, timeout: 0.01))
        #expect(!queue.hasWaiters)
        queue.leave()
        #expect(queue.enter(timeout: 0.01))
        queue.leave()
    }
}
