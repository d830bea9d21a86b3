import Foundation
import StackDay
import StackDayApplication
import StackDayLua
import StackDaySQLite

/// The `stackday` command tree and its entry point.
enum Stackday {
    static let version = "0.1.0"

    static var root: CommandSpec {
        CommandSpec(
            name: "stackday", abstract: "Track habits whose schedules, goals and streak rules are Lua policies.",
            deferring: [
                DeferredCommand("habit") { HabitCommand.spec }, DeferredCommand("group") { GroupCommand.spec },
                DeferredCommand("record") { RecordCommand.record }, DeferredCommand("undo") { RecordCommand.undo },
                DeferredCommand("skip") { RecordCommand.skip }, DeferredCommand("unskip") { RecordCommand.unskip },
                DeferredCommand("log") { RecordCommand.log }, DeferredCommand("today") { StatsCommand.today },
                DeferredCommand("report") { ReportCommand.spec }, DeferredCommand("stats") { StatsCommand.stats },
                DeferredCommand("explain") { ExplainCommand.spec }, DeferredCommand("calendar") { CalendarCommand.spec },
                DeferredCommand("policy") { PolicyCommand.spec }, DeferredCommand("export") { ExchangeCommand.export },
                DeferredCommand("import") { ExchangeCommand.importSpec }, DeferredCommand("sync") { SyncCommand.spec },
                DeferredCommand("user") { UserCommand.spec }, DeferredCommand("serve") { ServeCommand.spec },
                DeferredCommand("demo") { DemoCommand.spec },
            ]
        )
    }

    /// Parses and runs; returns the exit status (0, 1 on failure, 64 on a usage error).
    static func main(_ argv: [String]) -> Int32 {
        // A closed stdout must be an error to report, not a signal that ends the process.
        signal(SIGPIPE, SIG_IGN)
        let io = TerminalIO()
        let status = run(argv, io: io)
        io.flush()
        if let code = io.outputError {
            // Output comes after the commit: say that the change is stored, so it is not made twice.
            if status == 0, let committed = io.committed {
                io.error("Error: \(committed), but cannot write to standard output: \(String(cString: strerror(code))) (the change is stored; do not run the command again)")
            } else {
                io.error("Error: cannot write to standard output: \(String(cString: strerror(code)))")
            }
            return 1
        }
        return status
    }

    /// The help's language: `--lang` when given (a value help cannot use is left to the
    /// command), else the locale's.
    static func helpLanguage(_ argv: [String], environment: [String: String]) -> ReportLanguage {
        var given: String?
        for (index, argument) in argv.enumerated() {
            if argument == "--lang", index + 1 < argv.count { given = argv[index + 1] }
            if argument.hasPrefix("--lang=") { given = String(argument.dropFirst(7)) }
        }
        switch given {
        case "ko": return .korean
        case "en": return .english
        default: return CLIEnvironment.localeLanguage(environment)
        }
    }

    static func run(_ argv: [String], io: TerminalIO) -> Int32 {
        if let status = generated(argv, io: io) { return status }
        var createdFiles: CreatedFiles?
        let parser = ArgumentParser(root: root, io: io)
        var help = HelpFormatter(toolName: "stackday")
        help.language = helpLanguage(argv, environment: io.environment)
        do {
            switch try parser.parse(argv) {
            case .version:
                io.print(version)
            case .help(let path):
                io.write(help.help(parser.spec(at: path), path: path))
            case .run(let command, let invocation):
                createdFiles = invocation.createdFiles
                do {
                    try CLIEnvironment.checkStoreOptions(invocation)
                    // A command still running after a second says so on a terminal (serve logs instead).
                    if io.isErrorTerminal, !invocation.globals.quiet, invocation.path.first != "serve" {
                        io.notice.start(label: (["stackday"] + invocation.path).joined(separator: " "), after: workingDelay(io.environment))
                    }
                    defer { io.notice.stop() }
                    try command.run?(invocation)
                } catch let error as RequestError {
                    // The application refused the options: a usage error of this command.
                    throw UsageError(message: error.message, path: invocation.path)
                }
            }
            return 0
        } catch let error as UsageError {
            createdFiles?.removeAll()
            // With --json a failure is one JSON line on stderr, the API's error body.
            if wantsJSON(argv) {
                io.error(ErrorCode.body(.usage, message(for: error)).jsonText)
                return 64
            }
            let words = Words(language(argv, environment: io.environment))
            io.error("\(words["Error"]): \(words.language == .korean ? error.korean ?? message(for: error) : message(for: error))")
            io.error("\(words["Usage"]): \(help.usageLine(parser.spec(at: error.path), path: error.path))")
            let helpCommand = (["stackday"] + error.path + ["--help"]).joined(separator: " ")
            io.error("  " + words.say("See '{command}' for more information.", ("command", helpCommand)))
            return 64
        } catch let status as ExitStatus {
            return status.code
        } catch {
            createdFiles?.removeAll()
            if wantsJSON(argv) {
                let code = (error as? CommandFailure)?.code ?? (error as? HabitsFailed)?.code ?? (error as? GroupsFailed)?.code ?? ErrorCode.of(error)
                io.error(ErrorCode.body(code, message(for: error)).jsonText)
            } else {
                let words = Words(language(argv, environment: io.environment))
                io.error("\(words["Error"]): \(message(for: error, words.language))")
            }
            return 1
        }
    }

    /// The documents made from the command tree (`--generate-completion-script SHELL`,
    /// `--generate-manual`) and the names completion asks for (`--complete habits|policies`, with
    /// any `--db`, `--database` or `--user` before it); nil for any other command line.
    static func generated(_ argv: [String], io: TerminalIO) -> Int32? {
        guard let index = argv.firstIndex(where: { ["--generate-completion-script", "--generate-manual", "--complete"].contains($0) }) else { return nil }
        let value = argv.count > index + 1 ? argv[index + 1] : nil
        switch argv[index] {
        case "--generate-manual":
            io.write(ManualPage.roff(root: root, version: version))
        case "--generate-completion-script":
            guard let shell = value.flatMap(CompletionScript.Shell.init(rawValue:)) else {
                io.error("Error: --generate-completion-script takes bash, zsh or fish")
                return 64
            }
            io.write(CompletionScript.script(for: shell, root: root))
        default:
            // Completion asks quietly: no store, no names, no error.
            let store = Array(argv[..<index]) + ["--json"]
            let kind = value ?? ""
            let names: [String]
            switch kind {
            case "habits": names = (try? completionHabits(store)) ?? []
            case "policies": names = (try? completionPolicies(store)) ?? []
            default: names = []
            }
            names.forEach { io.print($0) }
        }
        return 0
    }

    private static func completionHabits(_ argv: [String]) throws -> [String] {
        guard case .run(_, let invocation) = try ArgumentParser(root: root, io: TerminalIO()).parse(argv + ["habit", "list"]) else { return [] }
        let environment = try CLIEnvironment(invocation)
        return try ListHabits(context: environment.context())().map(\.name)
    }

    private static func completionPolicies(_ argv: [String]) throws -> [String] {
        guard case .run(_, let invocation) = try ArgumentParser(root: root, io: TerminalIO()).parse(argv + ["policy", "list"]) else { return [] }
        return try CLIEnvironment(invocation).library().availableNames()
    }

    /// Whether the command line asks for JSON (`--json` anywhere before `--`), even when it could
    /// not be parsed.
    static func wantsJSON(_ argv: [String]) -> Bool {
        argv.prefix { $0 != "--" }.contains("--json")
    }

    /// The longest message printed whole, in characters.
    static let messageLimit = 1_000

    /// Seconds before a running command shows its "working…" line: 1, or `STACKDAY_PROGRESS_AFTER`.
    static func workingDelay(_ environment: [String: String]) -> Double {
        environment["STACKDAY_PROGRESS_AFTER"].flatMap(Double.init).map { max(0, $0) } ?? 1
    }

    /// The language a command line asks for before it is parsed (for its error): `--lang`, else the locale.
    static func language(_ argv: [String], environment: [String: String]) -> ReportLanguage {
        let arguments = Array(argv.prefix { $0 != "--" })
        for (index, argument) in arguments.enumerated() {
            let value = argument.hasPrefix("--lang=") ? String(argument.dropFirst(7)) : argument == "--lang" && index + 1 < arguments.count ? arguments[index + 1] : nil
            if let value { return ReportLanguage(rawValue: value) ?? .english }
        }
        return CLIEnvironment.localeLanguage(environment)
    }

    /// One line a user can act on, whatever the error, in `language`; a longer one is cut, saying how much was cut.
    static func message(for error: any Error, _ language: ReportLanguage = .english) -> String {
        let text = ErrorText.message(error, language)
        let line = text.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
        guard line.count > messageLimit else { return line }
        return String(line.prefix(messageLimit)) + "… (\(line.count - messageLimit) more characters)"
    }
}
