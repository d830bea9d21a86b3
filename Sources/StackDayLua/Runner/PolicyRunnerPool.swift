import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runner processes for untrusted policy work (`IsolatedPolicyResolver` sends them its calls):
/// the deadline no script can hold.
///
/// A call is handed to an idle runner (a new one is started when none is idle) and waited for
/// until what its request has left of its CPU time plus `margin` (at most `longestWait`). Past
/// that the runner is killed (SIGKILL) and reaped, the call fails on its time budget, and a new
/// runner takes its place on the next call: whatever the script was doing, inside Lua or in one
/// C call, it ends, and nothing it did can be written (a runner writes nothing; only the
/// request's thread does, with answers it never got).
///
/// `@unchecked Sendable`: `idle` is read and written only while `lock` is held; a runner taken
/// from it belongs to the one call that took it.
public final class PolicyRunnerPool: @unchecked Sendable {
    /// The runner's command line: the executable, `policy-runner`, the per-call budget.
    private let arguments: [String]
    public let budget: PolicyBudget
    /// Time past a request's CPU budget a runner is waited for before it is killed.
    public let margin: Duration
    /// The longest any one call is waited for (the server's request deadline, less room to answer).
    public let longestWait: Duration
    private let keepIdle: Int
    private let spawner = RunnerSpawner()
    private let lock = NSLock()
    private var idle: [RunnerProcess] = []

    /// Runners of `executable` (a `stackday` binary: it is run as `EXECUTABLE policy-runner …`),
    /// each call under `budget`; at most `keepIdle` idle runners are kept between calls.
    public init(executable: String, budget: PolicyBudget = .standard, margin: Duration = .milliseconds(50),
                longestWait: Duration = .seconds(4), keepIdle: Int = 4) {
        arguments = [executable, PolicyRunner.command] + PolicyRunner.arguments(for: budget)
        self.budget = budget
        self.margin = margin
        self.longestWait = longestWait
        self.keepIdle = keepIdle
        // A runner that ended leaves a broken pipe: writing to it must fail, not end the server.
        signal(SIGPIPE, SIG_IGN)
    }

    /// The executable of this process, to run runners from: `/proc/self/exe` itself where there
    /// is one, which runs this very binary even after an upgrade replaced (or removed) its file,
    /// so a server started before an upgrade never mixes runners of another version.
    public static var currentExecutable: String {
        FileManager.default.fileExists(atPath: "/proc/self/exe") ? "/proc/self/exe" : CommandLine.arguments[0]
    }

    deinit {
        for runner in idle { runner.stop() }
        spawner.stop()
    }

    /// Runs `call` in a runner, waiting until `waitNanoseconds` from now (bounded by
    /// `longestWait`); `sources` holds each script's text by hash, sent only to a runner that
    /// has not compiled it.
    func perform(_ call: RunnerCall, sources: [String: String], waitNanoseconds: Int) throws -> RunnerReply {
        let runner = try take()
        let wait = min(UInt64(max(0, waitNanoseconds)), Self.nanoseconds(longestWait))
        let deadline = RunnerProcess.monotonicNanoseconds() + wait
        var call = call
        for index in call.scripts.indices where !runner.known.contains(call.scripts[index].sha256) {
            call.scripts[index].source = sources[call.scripts[index].sha256]
        }
        for attempt in 0..<2 {
            switch runner.exchange(call.frame.message, deadline: deadline) {
            case .answered(let bytes):
                guard let reply = try? RunnerReply(reading: bytes) else {
                    runner.stop()
                    throw PolicyRunnerPoolError.ended("its answer could not be read")
                }
                if reply.status == .needsSource, attempt == 0 {
                    for index in call.scripts.indices { call.scripts[index].source = sources[call.scripts[index].sha256] }
                    runner.known.removeAll()
                    continue
                }
                for script in call.scripts { runner.known.insert(script.sha256) }
                give(back: runner)
                return reply
            case .late:
                replace()
                throw PolicyRunnerPoolError.late(waitedNanoseconds: Int(wait))
            case .ended(let why):
                throw PolicyRunnerPoolError.ended(why)
            }
        }
        give(back: runner)
        throw PolicyRunnerPoolError.ended("it asked for a script's source twice")
    }

    /// An idle runner, or a new one; it belongs to the caller until given back.
    func take() throws -> RunnerProcess {
        if let runner = lock.withLock({ idle.popLast() }) { return runner }
        let arguments = arguments
        guard let runner = spawner.run({ RunnerProcess.start(arguments) }) else {
            throw PolicyRunnerPoolError.ended("a runner could not be started (\(arguments[0]))")
        }
        return runner
    }

    /// Starts a runner in the background to take a killed one's place, so that the next call
    /// does not wait for a start.
    func replace() {
        let arguments = arguments
        spawner.submit { [weak self] in
            guard let self, let runner = RunnerProcess.start(arguments) else { return }
            self.give(back: runner)
        }
    }

    /// Keeps `runner` for later calls (stops it when it has ended or enough are idle).
    func give(back runner: RunnerProcess) {
        lock.lock()
        guard runner.isAlive, idle.count < keepIdle else {
            lock.unlock()
            runner.stop()
            return
        }
        idle.append(runner)
        lock.unlock()
    }

    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }
}

/// Why a runner gave no answer.
enum PolicyRunnerPoolError: Error {
    /// Killed at its deadline, after waiting this long.
    case late(waitedNanoseconds: Int)
    /// It ended on its own, or could not be started.
    case ended(String)
}
