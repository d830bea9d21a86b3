/// The `stackday(1)` manual page in roff, made from the command tree and the global options, as
/// swift-argument-parser's `generate-manual` does: nothing in it is written by hand twice.
enum ManualPage {
    static func roff(root: CommandSpec, version: String) -> String {
        let help = HelpFormatter(toolName: "stackday")
        var page = [
            ".TH STACKDAY 1 \"\" \"stackday \(version)\" \"User Commands\"",
            ".SH NAME", "stackday \\- \(escaped(root.abstract))",
            ".SH SYNOPSIS", ".B stackday", "[\\fIglobal options\\fR] \\fIcommand\\fR [\\fIarguments\\fR] [\\fIoptions\\fR]",
            ".SH DESCRIPTION",
            escaped("""
            StackDay tracks habits whose schedules (which days are due), progress rules (how far a day's total is toward its \
            goal) and streak rules (what breaks a streak) are Lua 5.4 policy scripts. Each habit runs the scripts stored \
            with it, pinned by SHA-256, so editing a policy file changes no habit until `stackday policy upgrade`. Data \
            lives in one SQLite file by default, or in PostgreSQL with --database.
            """),
            ".SH COMMANDS",
        ]
        for (path, spec) in CompletionScript.paths(root) where !path.isEmpty && spec.run != nil {
            page += [".TP", "\\fB\(escaped(help.usageLine(spec, path: path)))\\fR", escaped(spec.abstract)]
            if let discussion = spec.discussion { page += [".br", escaped(discussion)] }
            for argument in spec.arguments { page += [".br", "\\fI<\(escaped(argument.name))>\\fR \(escaped(argument.help))"] }
            for option in spec.options { page += [".br", "\\fB\(escaped(option.usage))\\fR \(escaped(option.help))"] }
        }
        page.append(".SH GLOBAL OPTIONS")
        for option in GlobalOptions.specs { page += [".TP", "\\fB\(escaped(option.usage))\\fR", escaped(option.help)] }
        page += [".TP", "\\fB\\-\\-version\\fR", "Show the version.", ".TP", "\\fB\\-h\\fR, \\fB\\-\\-help\\fR", "Show help information."]
        page += [
            ".TP", "\\fB\\-\\-generate\\-completion\\-script\\fR \\fIbash|zsh|fish\\fR", "Print a completion script for the shell.",
            ".TP", "\\fB\\-\\-generate\\-manual\\fR", "Print this page.",
        ]
        page.append(".SH ENVIRONMENT")
        for (name, meaning) in environment { page += [".TP", "\\fB\(name)\\fR", escaped(meaning)] }
        page += [
            ".SH FILES",
            ".TP", "\\fI$XDG_DATA_HOME/stackday/stackday.sqlite\\fR", "The default database (~/.local/share/stackday/stackday.sqlite without XDG_DATA_HOME).",
            ".TP", "\\fI~/.config/stackday/policies/NAME.lua\\fR", "User policies, found before the built-in ones.",
            ".SH EXIT STATUS",
            ".TP", "0", "Success.",
            ".TP", "1", "A failure: a habit or policy not found, a policy that failed, a store error, a refused input.",
            ".TP", "64", "A usage error: an unknown command or option, a missing or malformed value.",
            ".SH EXAMPLES",
        ]
        for example in examples { page += [".PP", ".nf", escaped(example), ".fi"] }
        return page.joined(separator: "\n") + "\n"
    }

    static let environment: [(String, String)] = [
        ("STACKDAY_DB", "The SQLite database file, when --db is not given."),
        ("STACKDAY_DATABASE_URL", "postgres://… or sqlite:PATH, when --database is not given."),
        ("STACKDAY_USER", "Whose habits, when --user is not given (default: default)."),
        ("STACKDAY_POLICIES", "The user policy folder, when --policies is not given."),
        ("XDG_DATA_HOME, XDG_CONFIG_HOME, HOME", "Where the default database and policy folder are."),
        ("LC_ALL, LC_MESSAGES, LANG", "The language of every command's text when --lang is not given: ko… is Korean, else English."),
        ("NO_COLOR", "When set to anything, no colours (unless --color always)."),
        ("STACKDAY_PROGRESS_AFTER", "Seconds a command runs before it shows a working… line on a terminal (default: 1); --quiet turns it off."),
    ]

    static let examples = [
        "stackday habit add water --goal 8 --unit cups",
        "stackday record water 2",
        "stackday record run 5 --note \"in the rain\"",
        "stackday today",
        "stackday calendar water",
        "stackday habit add review --schedule rrule --schedule-params '{\"rule\":\"FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1\"}'",
        "stackday explain water",
        "stackday --generate-completion-script bash > ~/.local/share/bash-completion/completions/stackday",
    ]

    /// Text as roff reads it literally: backslashes and hyphens escaped, no line starting with a dot.
    static func escaped(_ text: String) -> String {
        let body = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        return body.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(".") || $0.hasPrefix("'") ? "\\&" + $0 : String($0) }.joined(separator: "\n")
    }
}
