import Foundation

/// Starts runner processes from one long-lived thread of its own: a runner dies with the thread
/// that started it (`PR_SET_PDEATHSIG`), so none may be started by a request's thread, which the
/// server can replace.
///
/// `@unchecked Sendable`: `jobs` and `stopped` are read and written only while `condition` is held.
final class RunnerSpawner: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []
    private var stopped = false

    init() {
        let thread = Thread { [self] in loop() }
        thread.name = "stackday-runner-spawner"
        thread.start()
    }

    private func loop() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            if jobs.isEmpty && stopped {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }

    /// Runs `body` on the spawner's thread and returns what it gave.
    func run<T>(_ body: @escaping () -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        condition.lock()
        jobs.append {
            box.value = body()
            done.signal()
        }
        condition.signal()
        condition.unlock()
        done.wait()
        return box.value!
    }

    /// Runs `body` on the spawner's thread, later; returns at once.
    func submit(_ body: @escaping () -> Void) {
        condition.lock()
        jobs.append(body)
        condition.signal()
        condition.unlock()
    }

    /// Ends the thread once the jobs given are done.
    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    /// `@unchecked Sendable`: written once on the spawner's thread before the semaphore is
    /// signalled, read once after it is waited for.
    private final class ResultBox<T>: @unchecked Sendable {
        var value: T?
    }
}
