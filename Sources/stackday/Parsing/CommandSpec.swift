/// The shape of one command: its arguments, options and subcommands, and what it runs.
struct CommandSpec {
    var name: String
    var abstract: String
    var discussion: String? = nil
    var arguments: [ArgumentSpec] = []
    var options: [OptionSpec] = []
    var subcommands: [CommandSpec] = []
    var run: ((Invocation) throws -> Void)? = nil

    func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }
}

/// A positional argument.
struct ArgumentSpec {
    var name: String
    var help: String
    var isOptional = false
    /// The last argument may take every remaining positional value (`<name> ...`).
    var isVariadic = false
}

/// A `--name value` option, or a `--name` flag when `valueName` is nil.
struct OptionSpec {
    var name: String
    var valueName: String?
    var help: String
    /// Given several times, every value counts (a list in the request); otherwise the last one does.
    var repeatable = false

    var isFlag: Bool { valueName == nil }
    var usage: String { valueName.map { "--\(name) <\($0)>" } ?? "--\(name)" }
}
