import CHTTP
import Foundation
import StackDay

/// Threads that run work nobody is watching (a device's sync pages read, its figures computed) at
/// a lower CPU priority than the server's workers: on a busy machine the scheduler then gives the
/// requests people wait on (a record, today's page) the processor first, and a flood of sync pages
/// slows them little. Work that holds the store's writer stays on a worker: at the lower priority
/// it would hold the writer, and everyone waiting for it, for as long as the cores are busy.
///
/// A worker hands the work over and waits; the work runs on one of the lane's threads, whose
/// `nice` is raised once when it starts (a thread may lower its own priority without privileges,
/// never raise it back, so the server's own workers are never touched). The work may use the
/// worker's store: the worker is blocked meanwhile, so one thread at a time uses it; the worker's
/// `CommitGate` claim is bound on the lane's thread for it.
///
/// `@unchecked Sendable`: `jobs` and `threads` are read and written with `condition` locked.
final class BackgroundLane: @unchecked Sendable {
    /// How much lower than the workers the lane runs (`nice` 10: about a tenth of a worker's share).
    static let niceness: Int32 = 10

    static let shared = BackgroundLane(threads: max(2, ProcessInfo.processInfo.activeProcessorCount))

    private let condition = NSCondition()
    private var jobs: [(run: UncheckedJob, done: DispatchSemaphore)] = []
    private let limit: Int
    private var threads = 0

    init(threads: Int) {
        limit = threads
    }

    /// Runs `body` on one of the lane's threads and answers what it answered (or throws what it threw).
    func run<T>(_ body: () throws -> T) throws -> T {
        try withoutActuallyEscaping(body) { body in
            let box = ResultBox<T>()
            let done = DispatchSemaphore(value: 0)
            // The worker's commit gate goes with its work: a request given up still commits nothing.
            let claim = CommitGate.current
            condition.lock()
            jobs.append((UncheckedJob { box.result = Result { try claim.map { try CommitGate.withClaim($0, body) } ?? body() } }, done))
            if threads < limit {
                threads += 1
                Thread.detachNewThread { [self] in work() }
            }
            condition.signal()
            condition.unlock()
            done.wait()
            return try box.result!.get()
        }
    }

    private func work() {
        _ = sd_lower_thread_priority(Self.niceness)
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            var job: UncheckedJob? = jobs[0].run
            let done = jobs.removeFirst().done
            condition.unlock()
            job?.run()
            // The job (which holds the worker's closure) is gone before the worker goes on.
            job = nil
            done.signal()
        }
    }
}

/// A job's answer, written by the lane's thread before it signals and read by the worker after.
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}

/// A job handed to a lane thread: `@unchecked Sendable` because its worker waits for it to end.
private struct UncheckedJob: @unchecked Sendable {
    let run: () -> Void
}
