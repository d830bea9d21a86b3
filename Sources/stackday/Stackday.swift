import Foundation
import StackDay
import StackDayLua
import StackDaySQLite

/// The `stackday` command tree and its entry point.
enum Stackday {
    static let version = "0.1.0"

    static var root: CommandSpec {
        CommandSpec(
            name: "stackday", abstract: "Track habits whose schedules, goals and streak rules are Lua policies.",
            subcommands: [
                HabitCommand.spec, RecordCommand.record, RecordCommand.undo, RecordCommand.skip, StatsCommand.today,
                ReportCommand.spec, StatsCommand.stats, CalendarCommand.spec, PolicyCommand.spec,
                ExchangeCommand.export, ExchangeCommand.importSpec, DemoCommand.spec,
            ]
        )
    }

    /// Parses and runs; returns the exit status (0, 1 on failure, 64 on a usage error).
    static func main(_ argv: [String]) -> Int32 {
        let io = TerminalIO()
        defer { io.flush() }
        let parser = ArgumentParser(root: root, io: io)
        let help = HelpFormatter(toolName: "stackday")
        do {
            switch try parser.parse(argv) {
            case .version:
                io.print(version)
            case .help(let path):
                io.write(help.help(parser.spec(at: path), path: path))
            case .run(let command, let invocation):
                try command.run?(invocation)
            }
            return 0
        } catch let error as UsageError {
            io.error("Error: \(error.message)")
            io.error("Usage: \(help.usageLine(parser.spec(at: error.path), path: error.path))")
            io.error("  See '\((["stackday"] + error.path + ["--help"]).joined(separator: " "))' for more information.")
            return 64
        } catch {
            io.error("Error: \(message(for: error))")
            return 1
        }
    }

    /// One line a user can act on, whatever the error.
    static func message(for error: any Error) -> String {
        let text: String
        switch error {
        case let error as CustomStringConvertible: text = error.description
        default: text = error.localizedDescription
        }
        return text.replacingOccurrences(of: "\n", with: " ")
    }
}
