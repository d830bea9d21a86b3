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
    /// Bytes read from the runner and not yet taken as a message (read while a send waited).
    private var inbox: [UInt8] = []
    private var inboxStart = 0
    /// What one read takes from the pipe (a pipe holds 64 KiB).
    private var scratch = [UInt8](repeating: 0, count: 1 << 16)

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
        // The server's end never blocks on a full pipe: a send reads the runner's answers while
        // it waits, so two ends writing at once cannot wait on each other.
        _ = fcntl(toRunner[1], F_SETFL, fcntl(toRunner[1], F_GETFL) | O_NONBLOCK)
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
        if let failed = send(message, by: deadline) { return failed }
        return receive(by: deadline)
    }

    /// Writes `message` to the runner without waiting for its answer; nil once it is written,
    /// else why not (`.late` when the deadline passed first: the runner was killed). While the
    /// pipe is full, whatever the runner answers meanwhile is read and kept for `receive`.
    func send(_ message: [UInt8], by deadline: UInt64) -> Outcome? {
        guard isAlive else { return .ended("the runner had ended") }
        var done = 0
        while done < message.count {
            let wrote = message.withUnsafeBytes { Glibc.write(input, $0.baseAddress! + done, message.count - done) }
            if wrote > 0 {
                done += wrote
                continue
            }
            guard wrote < 0, errno == EAGAIN || errno == EINTR else { return ended("its input closed") }
            if errno == EINTR { continue }
            var pollers = [pollfd(fd: input, events: Int16(POLLOUT), revents: 0), pollfd(fd: output, events: Int16(POLLIN), revents: 0)]
            guard let timeout = millisecondsLeft(until: deadline) else {
                terminate()
                return .late
            }
            guard poll(&pollers, 2, timeout) > 0, pollers[1].revents != 0 else { continue }
            if let failed = readIntoInbox() { return failed }
        }
        return nil
    }

    /// The runner's next message, read by `deadline`: `.answered` with it, `.late` once the
    /// runner was killed at the deadline, `.ended` when its output ended first.
    func receive(by deadline: UInt64) -> Outcome {
        while true {
            let available = inbox.count - inboxStart
            if available >= 4 {
                let count = inbox[inboxStart..<inboxStart + 4].reduce(0) { $0 << 8 | Int($1) }
                guard count <= RunnerFrame.maximumBytes else { return ended("it answered more than a message may hold") }
                if available >= 4 + count {
                    let message = Array(inbox[(inboxStart + 4)..<(inboxStart + 4 + count)])
                    inboxStart += 4 + count
                    if inboxStart == inbox.count {
                        inbox.removeAll(keepingCapacity: true)
                        inboxStart = 0
                    }
                    return .answered(message)
                }
            }
            guard let timeout = millisecondsLeft(until: deadline) else {
                terminate()
                return .late
            }
            var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, timeout) <= 0 { continue }
            if let failed = readIntoInbox() { return failed }
        }
    }

    /// Milliseconds from now to `deadline` (rounded up), nil once it has passed.
    private func millisecondsLeft(until deadline: UInt64) -> Int32? {
        let now = Self.monotonicNanoseconds()
        guard now < deadline else { return nil }
        return Int32(min(UInt64(Int32.max), (deadline - now + 999_999) / 1_000_000))
    }

    /// Reads what the runner has written into the inbox; `.ended` when its output ended.
    private func readIntoInbox() -> Outcome? {
        if inboxStart > 0, inboxStart * 2 >= inbox.count {
            inbox.removeFirst(inboxStart)
            inboxStart = 0
        }
        var error: Int32 = 0
        let got = scratch.withUnsafeMutableBytes { buffer in
            let got = read(output, buffer.baseAddress!, buffer.count)
            error = errno
            if got > 0 { inbox.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<got])) }
            return got
        }
        if got > 0 || (got < 0 && error == EINTR) { return nil }
        return .ended(terminate().map(Self.describe) ?? "its output closed")
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
