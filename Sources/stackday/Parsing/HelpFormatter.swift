/// Help text in swift-argument-parser's layout: OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS.
struct HelpFormatter {
    let toolName: String

    func usageLine(_ spec: CommandSpec, path: [String]) -> String {
        var parts = [([toolName] + path).joined(separator: " ")]
        if !spec.subcommands.isEmpty && spec.run == nil {
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
        var lines = ["OVERVIEW: \(spec.abstract)"]
        if let discussion = spec.discussion {
            lines.append("")
            lines.append(discussion)
        }
        lines.append("")
        lines.append("USAGE: \(usageLine(spec, path: path))")
        if !spec.arguments.isEmpty {
            lines.append("")
            lines.append("ARGUMENTS:")
            for argument in spec.arguments { lines.append(row("<\(argument.name)>", argument.help)) }
        }
        lines.append("")
        lines.append("OPTIONS:")
        for option in spec.options { lines.append(row(option.usage, option.help)) }
        if path.isEmpty {
            for option in GlobalOptions.specs { lines.append(row(option.usage, option.help)) }
            lines.append(row("--version", "Show the version."))
        }
        lines.append(row("-h, --help", "Show help information."))
        if !spec.subcommands.isEmpty {
            lines.append("")
            lines.append("SUBCOMMANDS:")
            for sub in spec.subcommands { lines.append(row(sub.name, sub.abstract)) }
            lines.append("")
            lines.append("  See '\(([toolName, "help"] + path).joined(separator: " ")) <subcommand>' for detailed help.")
        }
        if !path.isEmpty {
            lines.append("")
            let globals = GlobalOptions.specs.map { "--" + $0.name }.joined(separator: ", ")
            lines.append("  Global options (\(globals)) are accepted too; see '\(toolName) --help'.")
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
