import Foundation
import StackDay

/// The engine's work: closures run by its worker threads, each given that worker's contexts
/// (one per owner, made on first use).
///
/// `@unchecked Sendable`: `jobs` and `closed` are read and written only while `condition` is held.
final class JobQueue: @unchecked Sendable {
    typealias Job = @Sendable (_ contextFor: (_ owner: String) throws -> HabitContext) -> Void

    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var head = 0
    private var closed = false

    /// Adds a job; false when the queue is closed.
    func push(_ job: @escaping Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !closed else { return false }
        jobs.append(job)
        condition.signal()
        return true
    }

    /// The next job, waiting for one; nil once the queue is closed and drained.
    func pop() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while head == jobs.count && !closed { condition.wait() }
        guard head < jobs.count else { return nil }
        let job = jobs[head]
        head += 1
        if head > 1024, head * 2 > jobs.count {
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }

    /// Refuses new jobs; the workers finish the queued ones and stop.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
