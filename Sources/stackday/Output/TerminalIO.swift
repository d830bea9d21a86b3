import Foundation

/// Where the command line writes, and whether it writes to a terminal.
final class TerminalIO {
    private var buffer = ""

    /// Whether stdout is a terminal (colours and progress bars only then).
    let isTerminal = isatty(STDOUT_FILENO) == 1
    let isErrorTerminal = isatty(STDERR_FILENO) == 1

    func print(_ text: String = "") {
        write(text + "\n")
    }

    /// Writes `text` as it is, without adding a line break.
    func write(_ text: String) {
        buffer += text
        if buffer.utf8.count > 1 << 16 { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        FileHandle.standardOutput.write(Data(buffer.utf8))
        buffer = ""
    }

    func error(_ text: String) {
        flush()
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// A progress line on stderr, rewritten in place; only on a terminal.
    func progress(_ text: String) {
        guard isErrorTerminal else { return }
        FileHandle.standardError.write(Data(("\r\u{1B}[2K" + text).utf8))
    }

    func endProgress() {
        guard isErrorTerminal else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
