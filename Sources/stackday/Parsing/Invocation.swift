import StackDay
import StackDayLua

/// A parsed command line: the command path, its arguments and options, and the global options.
struct Invocation {
    let path: [String]
    let arguments: [String: String]
    /// Every value of each argument (more than one only for a variadic one).
    let argumentLists: [String: [String]]
    let options: [String: String]
    let flags: Set<String>
    /// Every value of each option given more than once (a repeatable one), in order.
    var optionLists: [String: [String]] = [:]
    /// The command's options whose every value counts (`OptionSpec.repeatable`).
    var repeatable: Set<String> = []
    let globals: GlobalOptions
    let io: TerminalIO
    /// Files to remove if the command fails.
    var createdFiles = CreatedFiles()

    func usage(_ message: String) -> UsageError { UsageError(message: message, path: path) }
}
