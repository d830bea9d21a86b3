import Dispatch
import Foundation

/// The line a command that runs past a second shows on a terminal, `stats: working… 3 s`,
/// rewritten twice a second from a timer until the command writes anything, shows its own
/// progress line, or ends; then cleared, never to come back.
///
/// `@unchecked Sendable`: the timer's handler and the command's thread share `state`, read and
/// written only under `lock`; the handler writes to stderr under it too, so its line and the
/// command's output never interleave.
final class WorkingNotice: @unchecked Sendable {
    private enum State { case idle, waiting, shown, over }
    private let lock = NSLock()
    private var state = State.idle
    private var timer: DispatchSourceTimer?

    /// Shows `label: working…` after `delay` seconds unless stopped before.
    func start(label: String, after delay: Double) {
        lock.lock()
        defer { lock.unlock() }
        guard state == .idle else { return }
        state = .waiting
        let started = DispatchTime.now()
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "stackday.working"))
        timer.schedule(deadline: .now() + max(0, delay), repeating: 0.5)
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            self.lock.lock()
            defer { self.lock.unlock() }
            guard self.state == .waiting || self.state == .shown else { return }
            let seconds = Int(Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9)
            _ = TerminalIO.writeAll(STDERR_FILENO, "\r\u{1B}[2K\(label): working… \(seconds) s")
            self.state = .shown
        }
        self.timer = timer
        timer.resume()
    }

    /// Ends the notice for good, clearing its line if it is showing.
    func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard state != .over else { return }
        if state == .shown { _ = TerminalIO.writeAll(STDERR_FILENO, "\r\u{1B}[2K") }
        state = .over
        timer?.cancel()
        timer = nil
    }
}
