import StackDay

/// Parses a command line against a `CommandSpec` tree, in swift-argument-parser's manner:
/// `--name value` or `--name=value`, flags, positionals, `--` to end options, global options
/// anywhere, `-h`/`--help` and `help <command>` at every level.
struct ArgumentParser {
    enum Outcome {
        case run(CommandSpec, Invocation)
        case help([String])
        case version
    }

    /// Makes the command tree: built only once a command is looked for, so `--version` builds
    /// none of it (a start-up cost every command would otherwise pay twice over).
    let makeRoot: () -> CommandSpec
    let io: TerminalIO

    init(root: @escaping @autoclosure () -> CommandSpec, io: TerminalIO) {
        makeRoot = root
        self.io = io
    }

    func parse(_ argv: [String]) throws(UsageError) -> Outcome {
        var globals = GlobalOptions()
        var rest: [String] = []
        var index = 0
        var sawTerminator = false
        var wantsHelp = false
        var wantsVersion = false
        // Pass 1: global options (anywhere before `--`), help and version.
        while index < argv.count {
            let token = argv[index]
            index += 1
            if sawTerminator { rest.append(token); continue }
            if token == "--" { sawTerminator = true; rest.append(token); continue }
            if token == "-h" || token == "--help" { wantsHelp = true; continue }
            if token == "--version" { wantsVersion = true; continue }
            let (name, inline) = Self.split(token)
            guard let name, let spec = GlobalOptions.specs.first(where: { $0.name == name }) else { rest.append(token); continue }
            if spec.isFlag {
                if inline != nil { throw UsageError(.takesNoValue(option: name), path: []) }
                globals.flags.insert(name)
                continue
            }
            if let inline {
                globals.values[name] = inline
            } else {
                guard index < argv.count, !argv[index].hasPrefix("--") else { throw UsageError(.missingValue(option: name), path: []) }
                globals.values[name] = argv[index]
                index += 1
            }
            globals.every[name, default: []].append(globals.values[name] ?? "")
        }
        if wantsVersion && rest.isEmpty { return .version }

        // Pass 2: the command path.
        let root = makeRoot()
        var command = root
        var path: [String] = []
        var position = 0
        if rest.first == "help" {
            var helpPath: [String] = []
            var current = root
            for token in rest.dropFirst() {
                guard let sub = current.subcommand(named: token) else {
                    throw UsageError(.unknownCommand(token, suggestion: Self.suggestion(token, among: current)), path: helpPath)
                }
                helpPath.append(token)
                current = sub
            }
            return .help(helpPath)
        }
        while position < rest.count, command.hasSubcommands {
            let token = rest[position]
            if token.hasPrefix("-") { break }
            guard let sub = command.subcommand(named: token) else {
                throw UsageError(.unknownCommand(token, suggestion: Self.suggestion(token, among: command)), path: path)
            }
            command = sub
            path.append(token)
            position += 1
        }
        if wantsHelp { return .help(path) }
        guard command.run != nil else {
            if path.isEmpty && position >= rest.count { return .help([]) }
            throw UsageError(position < rest.count ? .unknownOption(rest[position], suggestion: nil) : .missingSubcommand, path: path)
        }

        // Pass 3: the command's own options and arguments.
        var options: [String: String] = [:]
        var flags = Set<String>()
        var lists: [String: [String]] = [:]
        var positionals: [String] = []
        var optionsEnded = false
        while position < rest.count {
            let token = rest[position]
            position += 1
            if optionsEnded || !token.hasPrefix("-") || token == "-" || Self.isNumber(token) {
                positionals.append(token)
                continue
            }
            if token == "--" { optionsEnded = true; continue }
            let (name, inline) = Self.split(token)
            guard let name, let spec = command.options.first(where: { $0.name == name }) else {
                let known = (command.options + GlobalOptions.specs).map { "--" + $0.name }
                throw UsageError(.unknownOption(token, suggestion: DidYouMean.suggestion(for: Self.split(token).0.map { "--" + $0 } ?? token, among: known)), path: path)
            }
            if spec.isFlag {
                if inline != nil { throw UsageError(.takesNoValue(option: name), path: path) }
                flags.insert(name)
            } else if let inline {
                options[name] = inline
                lists[name, default: []].append(inline)
            } else {
                guard position < rest.count, !rest[position].hasPrefix("--") else { throw UsageError(.missingValue(option: name), path: path) }
                options[name] = rest[position]
                lists[name, default: []].append(rest[position])
                position += 1
            }
        }
        var arguments: [String: String] = [:]
        var argumentLists: [String: [String]] = [:]
        for spec in command.arguments {
            if positionals.isEmpty {
                if !spec.isOptional { throw UsageError(.missingArgument(spec.name), path: path) }
                break
            }
            arguments[spec.name] = positionals.first
            argumentLists[spec.name] = spec.isVariadic ? positionals : [positionals[0]]
            positionals.removeFirst(spec.isVariadic ? positionals.count : 1)
        }
        if let extra = positionals.first {
            throw UsageError(.unexpectedArgument(extra), path: path)
        }
        var invocation = Invocation(path: path, arguments: arguments, argumentLists: argumentLists, options: options, flags: flags, globals: globals, io: io)
        invocation.optionLists = lists
        invocation.repeatable = Set(command.options.filter(\.repeatable).map(\.name))
        return .run(command, invocation)
    }

    /// `--name=value` → ("name", "value"); `--name` → ("name", nil); anything else → (nil, nil).
    static func split(_ token: String) -> (String?, String?) {
        guard token.hasPrefix("--"), token.count > 2 else { return (nil, nil) }
        let body = token.dropFirst(2)
        if let equals = body.firstIndex(of: "=") {
            return (String(body[..<equals]), String(body[body.index(after: equals)...]))
        }
        return (String(body), nil)
    }

    /// Negative numbers are values, not options (`record water -- -3` is not needed for them).
    static func isNumber(_ token: String) -> Bool {
        token.count > 1 && Double(token) != nil && !token.hasPrefix("--")
    }

    /// The spec at `path`.
    func spec(at path: [String]) -> CommandSpec {
        var command = makeRoot()
        for name in path { command = command.subcommand(named: name) ?? command }
        return command
    }

    /// "; did you mean 'habit'?" for a subcommand of `command` close to `token`, or nothing.
    static func suggestion(_ token: String, among command: CommandSpec) -> String? {
        DidYouMean.suggestion(for: token, among: command.subcommandNames)
    }
}
