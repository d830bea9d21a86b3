import Foundation

/// A secret read from the person, not shown: on a terminal, typed with echo off (asked twice when
/// it is new); otherwise the first line of standard input (a script's pipe).
enum SecretInput {
    /// The line typed or piped, without its line end; nil at the end of input.
    static func read(io: TerminalIO, prompt: String, confirm: String?) throws -> String? {
        guard io.isInputTerminal else { return io.readLine() }
        let first = try hiddenLine(io: io, prompt: prompt)
        guard let confirm, let first else { return first }
        guard try hiddenLine(io: io, prompt: confirm) == first else { throw CommandFailure("the two entries differ; nothing was changed") }
        return first
    }

    /// One line from the terminal with echo off; echo comes back even when reading fails.
    private static func hiddenLine(io: TerminalIO, prompt: String) throws -> String? {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return io.readLine() }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            io.error("")
        }
        io.prompt(prompt)
        return io.readLine()
    }
}
