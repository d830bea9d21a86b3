import StackDay
/// Help text in swift-argument-parser's layout: OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS;
/// in Korean (`--lang ko`, or a Korean locale) every heading and text from `HelpWords`.
struct HelpFormatter {
    let toolName: String
    var language: ReportLanguage = .english

    /// `text` in the help's language.
    private func say(_ text: String) -> String { HelpWords.say(text, language) }

    func usageLine(_ spec: CommandSpec, path: [String]) -> String {
        var parts = [([toolName] + path).joined(separator: " ")]
        if spec.hasSubcommands && spec.run == nil {
            parts.append("<subcommand>")
        } else {
            for argument in spec.arguments {
                let shown = "<\(argument.name)>" + (argument.isVariadic ? " ..." : "")
                parts.append(argument.isOptional ? "[\(shown)]" : shown)
            }
            for option in spec.options {
                parts.append("[\(option.usage)]")
            }
        }
        return parts.joined(separator: " ")
    }

    func help(_ spec: CommandSpec, path: [String]) -> String {
        let korean = language == .korean
        var lines = ["\(say("OVERVIEW")): \(say(spec.abstract))"]
        if let discussion = spec.discussion {
            lines.append("")
            lines.append(say(discussion))
        }
        lines.append("")
        lines.append("\(say("USAGE")): \(usageLine(spec, path: path))")
        if !spec.arguments.isEmpty {
            lines.append("")
            lines.append("\(say("ARGUMENTS")):")
            for argument in spec.arguments { lines.append(row("<\(argument.name)>", say(argument.help))) }
        }
        lines.append("")
        lines.append("\(say("OPTIONS")):")
        for option in spec.options { lines.append(row(option.usage, say(option.help))) }
        if path.isEmpty {
            for option in GlobalOptions.specs { lines.append(row(option.usage, say(option.help))) }
            lines.append(row("--version", say("Show the version.")))
        }
        lines.append(row("-h, --help", say("Show help information.")))
        if spec.hasSubcommands {
            lines.append("")
            lines.append("\(say("SUBCOMMANDS")):")
            for sub in spec.subcommands { lines.append(row(sub.name, say(sub.abstract))) }
            lines.append("")
            let command = ([toolName, "help"] + path).joined(separator: " ")
            lines.append(korean ? "  자세한 도움말: '\(command) <하위 명령>'" : "  See '\(command) <subcommand>' for detailed help.")
        }
        if !path.isEmpty {
            lines.append("")
            let globals = GlobalOptions.specs.map { "--" + $0.name }.joined(separator: ", ")
            lines.append(korean ? "  전역 옵션(\(globals))도 쓸 수 있습니다. '\(toolName) --help'를 보세요."
                                : "  Global options (\(globals)) are accepted too; see '\(toolName) --help'.")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func row(_ label: String, _ help: String) -> String {
        let padded = "  " + label
        if padded.count < 26 {
            return padded + String(repeating: " ", count: 26 - padded.count) + help
        }
        return padded + "\n" + String(repeating: " ", count: 26) + help
    }
}
