import Foundation
import StackDay

/// Where the command line writes, and whether it writes to a terminal.
///
/// Output is written with `write(2)`: a full disk or a closed pipe on stdout is remembered as
/// `outputError` (the command then fails with a message) instead of ending the process.
///
/// Text printed (`print`, `error`) has its control characters escaped but line breaks, tabs and
/// the command's own colours: a name an older build stored with an escape sequence cannot move
/// the cursor, retitle the terminal or ring it. `write` is for data (an export, a script's text)
/// and writes it as it is.
///
/// `TerminalIO(memory:)` is the same in memory, for running the command line in a test's process:
/// no terminal, the given environment and standard input, and what is written kept as text.
final class TerminalIO {
    private var buffer = ""
    /// The `errno` of the first write to stdout that failed.
    private(set) var outputError: Int32?
    /// What a command committed before printing (`recorded`), so that an output failure after
    /// it says the change is stored.
    var committed: String?

    /// Whether stdout is a terminal (colours and progress bars only then).
    let isTerminal: Bool
    let isErrorTerminal: Bool
    /// Whether standard input is a terminal (a question can be asked, a secret typed unseen).
    let isInputTerminal: Bool
    /// The environment variables the command reads.
    let environment: [String: String]
    /// In memory: standard input's lines, and what was written to stdout and stderr.
    private var memory: (input: [Substring], output: String, error: String)?

    /// The process's own standard streams and environment.
    init() {
        isTerminal = isatty(STDOUT_FILENO) == 1
        isErrorTerminal = isatty(STDERR_FILENO) == 1
        isInputTerminal = isatty(STDIN_FILENO) == 1
        environment = Self.processEnvironment()
    }

    /// The process's environment, read from `environ` itself: `ProcessInfo` would set up more of
    /// Foundation than a short command needs.
    static func processEnvironment() -> [String: String] {
        var found: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
                found[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return found
    }

    /// Streams in memory: `input` is standard input (nil: empty), `environment` the variables.
    init(memory input: String?, environment: [String: String]) {
        (isTerminal, isErrorTerminal, isInputTerminal) = (false, false, false)
        self.environment = environment
        memory = (input.map { $0.split(separator: "\n", omittingEmptySubsequences: false) } ?? [], "", "")
    }

    /// What was written to stdout and stderr, in memory.
    var written: (output: String, error: String) { (memory?.output ?? "", memory?.error ?? "") }

    /// The next line of standard input without its line end; nil at its end.
    func readLine() -> String? {
        guard memory != nil else { return Swift.readLine(strippingNewline: true) }
        guard let first = memory?.input.first, !(memory!.input.count == 1 && first.isEmpty) else { return nil }
        memory?.input.removeFirst()
        return String(first)
    }

    /// Writes to stderr (or to memory).
    private func writeError(_ text: String) {
        if memory != nil { memory?.error += text } else { _ = Self.writeAll(STDERR_FILENO, text) }
    }
    /// The "working…" line of a slow command; stopped before anything else is written.
    let notice = WorkingNotice()

    func print(_ text: String = "") {
        write(Self.shown(text) + "\n")
    }

    /// `text` as printed: control characters escaped but line breaks, tabs and colours.
    static func shown(_ text: String) -> String {
        ControlEscapes.escaped(text, keeping: ["\n", "\t"], styles: true)
    }

    /// Writes `text` as it is, without adding a line break.
    func write(_ text: String) {
        buffer += text
        if buffer.utf8.count > 1 << 16 { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        notice.stop()
        if memory != nil {
            memory?.output += buffer
        } else if outputError == nil, let code = Self.writeAll(STDOUT_FILENO, buffer) {
            outputError = code
        }
        buffer = ""
    }

    func error(_ text: String) {
        notice.stop()
        flush()
        writeError(Self.shown(text) + "\n")
    }

    /// A question on stderr, without a line break, for the answer typed after it.
    func prompt(_ text: String) {
        notice.stop()
        flush()
        writeError(text)
    }

    /// False with `--quiet`: no progress lines.
    var allowsProgress = true
    /// Whether progress lines are written: stderr is a terminal and `--quiet` was not given.
    var showsProgress: Bool { isErrorTerminal && allowsProgress }

    /// A progress line on stderr, rewritten in place (`ProgressLine` says when).
    func progress(_ text: String) {
        notice.stop()
        guard showsProgress else { return }
        writeError("\r\u{1B}[2K" + text)
    }

    func endProgress() {
        guard showsProgress else { return }
        writeError("\r\u{1B}[2K")
    }

    /// Writes every byte of `text` to `descriptor`; returns `errno` when a write fails.
    static func writeAll(_ descriptor: Int32, _ text: String) -> Int32? {
        var text = text
        return text.withUTF8 { bytes -> Int32? in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }
}
