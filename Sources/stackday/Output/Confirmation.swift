import Foundation
import StackDayApplication

/// Asks before a command destroys history (`habit delete`, `user remove`): on a terminal the
/// person answers; `--yes` answers for a script; without a terminal and without `--yes` the
/// command is refused as a usage error (exit 64) and changes nothing.
enum Confirmation {
    static let option = RequestField<Bool>.flag("yes", help: "Do it without asking (for scripts; without a terminal it is required).").commandLineOnly

    /// Returns once the question is answered yes. Throws a usage error naming `--yes` when there
    /// is no terminal to ask on, and a failure saying nothing changed for any other answer.
    static func require(_ invocation: Invocation, io: TerminalIO, question: String, refusal: String) throws {
        if try invocation[option] ?? false { return }
        guard io.isInputTerminal, io.isErrorTerminal else {
            throw invocation.usage("\(refusal) only when asked on a terminal, or with --yes")
        }
        io.prompt(question + " [y/N] ")
        let answer = io.readLine()?.trimmingCharacters(in: .whitespaces).lowercased()
        guard answer == "y" || answer == "yes" else { throw CommandFailure("not confirmed; nothing was changed") }
    }
}
