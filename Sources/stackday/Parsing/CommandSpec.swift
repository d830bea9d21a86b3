/// The shape of one command: its arguments, options and subcommands, and what it runs.
struct CommandSpec {
    var name: String
    var abstract: String
    var discussion: String?
    var arguments: [ArgumentSpec]
    var options: [OptionSpec]
    /// The subcommands by name, each built when it is looked for or listed: a command run builds
    /// its own path through the tree, not every command's options and help.
    var deferred: [DeferredCommand]
    var run: ((Invocation) throws -> Void)?

    init(name: String, abstract: String, discussion: String? = nil, arguments: [ArgumentSpec] = [], options: [OptionSpec] = [],
         subcommands: [CommandSpec] = [], run: ((Invocation) throws -> Void)? = nil) {
        self.init(name: name, abstract: abstract, discussion: discussion, arguments: arguments, options: options,
                  deferring: subcommands.map { spec in DeferredCommand(spec.name) { spec } }, run: run)
    }

    init(name: String, abstract: String, discussion: String? = nil, arguments: [ArgumentSpec] = [], options: [OptionSpec] = [],
         deferring deferred: [DeferredCommand], run: ((Invocation) throws -> Void)? = nil) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.deferred = deferred
        self.run = run
    }

    /// Every subcommand, built.
    var subcommands: [CommandSpec] { deferred.map { $0.make() } }

    var hasSubcommands: Bool { !deferred.isEmpty }

    var subcommandNames: [String] { deferred.map(\.name) }

    func subcommand(named name: String) -> CommandSpec? {
        deferred.first { $0.name == name }?.make()
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
