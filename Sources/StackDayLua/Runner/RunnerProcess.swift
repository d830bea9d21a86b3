import CLuaHost
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One running `stackday policy-runner` and the two pipe ends the server holds: used by one
/// request's thread at a time (the pool hands it out).
final class RunnerProcess {
    let pid: pid_t
    /// The runner's standard input.
    private let input: Int32
    /// The runner's standard output.
    private let output: Int32
    /// Scripts this runner compiled, by hash: sent without their source.
    var known: Set<String> = []
    private(set) var isAlive = true

    private init(pid: pid_t, input: Int32, output: Int32) {
        self.pid = pid
        self.input = input
        self.output = output
    }

    /// Starts `arguments[0]` with `arguments`; nil when the system refuses.
    static func start(_ arguments: [String]) -> RunnerProcess? {
        var toRunner: [Int32] = [0, 0], fromRunner: [Int32] = [0, 0]
        guard sd_pipe_cloexec(&toRunner) == 0 else { return nil }
        guard sd_pipe_cloexec(&fromRunner) == 0 else {
            close(toRunner[0]); close(toRunner[1])
            return nil
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toRunner[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromRunner[1], 1)
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let status = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        close(toRunner[0])
        close(fromRunner[1])
        guard status == 0 else {
            close(toRunner[1]); close(fromRunner[0])
            return nil
        }
        return RunnerProcess(pid: pid, input: toRunner[1], output: fromRunner[0])
    }

    enum Outcome {
        case answered([UInt8])
        /// The deadline passed first: the runner was killed.
        case late
        /// The runner ended (or its pipe broke) before answering.
        case ended(String)
    }

    /// Sends `message` and waits for the answer until `deadline` (CLOCK_MONOTONIC nanoseconds);
    /// past it the runner is killed (SIGKILL) and reaped before this returns.
    func exchange(_ message: [UInt8], deadline: UInt64) -> Outcome {
        guard isAlive else { return .ended("the runner had ended") }
        guard PolicyRunnerService.write(message, to: input) else { return ended("its input closed") }
        let header = receive(4, by: deadline)
        guard case .answered(let length) = header else { return header }
        let count = length.reduce(0) { $0 << 8 | Int($1) }
        guard count <= RunnerFrame.maximumBytes else { return ended("it answered more than a message may hold") }
        return receive(count, by: deadline)
    }

    /// `count` bytes of the runner's output, read by `deadline`: `.answered` with them, `.late`
    /// once the runner was killed at the deadline, `.ended` when its output ended first.
    private func receive(_ count: Int, by deadline: UInt64) -> Outcome {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let now = Self.monotonicNanoseconds()
            guard now < deadline else {
                terminate()
                return .late
            }
            var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(UInt64(Int32.max), (deadline - now + 999_999) / 1_000_000)))
            if ready <= 0 { continue }
            let got = bytes.withUnsafeMutableBytes { read(output, $0.baseAddress! + done, count - done) }
            if got > 0 {
                done += got
            } else if !(got < 0 && errno == EINTR) {
                return .ended(terminate().map(Self.describe) ?? "its output closed")
            }
        }
        return .answered(bytes)
    }

    private func ended(_ why: String) -> Outcome {
        terminate()
        return .ended(why)
    }

    /// Ends the runner now and reaps it.
    func stop() {
        terminate()
    }

    /// Kills the runner and reaps it, once: its wait status, or nil when it was reaped already
    /// (its pid may belong to another process by then, so it is never signalled again).
    @discardableResult
    private func terminate() -> Int32? {
        guard isAlive else { return nil }
        isAlive = false
        Glibc.kill(pid, SIGKILL)
        close(input)
        close(output)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }

    /// How a runner's wait status reads in a message.
    static func describe(_ status: Int32) -> String {
        let signal = status & 0x7F
        if signal == 0 { return "it exited with status \((status >> 8) & 0xFF)" }
        return signal == SIGXCPU ? "it spent its CPU time" : "it ended on signal \(signal)"
    }

    static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    deinit {
        stop()
    }
}
