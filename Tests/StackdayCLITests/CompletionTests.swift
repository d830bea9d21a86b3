import Foundation
import Testing
import StackDayTestSupport

/// Completion scripts and the manual page, made from the command tree: bash completes commands,
/// options and habit names; `man -l` renders the page with every section.
@Suite("completion and manual")
struct CompletionTests {
    /// What bash completes for `line` (the words typed, the last one being completed).
    func complete(_ words: [String], cli: CLIFixture) throws -> [String] {
        let script = cli.folder.path("stackday.bash")
        try runStackday(["--generate-completion-script", "bash"]).stdout.write(toFile: script, atomically: true, encoding: .utf8)
        let bin = cli.folder.path("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        // The script calls back into `stackday` on the PATH, with the --db typed on the line.
        try? FileManager.default.removeItem(atPath: bin + "/stackday")
        try FileManager.default.createSymbolicLink(atPath: bin + "/stackday", withDestinationPath: stackday.executable.path)
        let quoted = words.map { "'" + $0 + "'" }.joined(separator: " ")
        let program = """
            source \(script)
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
            _stackday
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try Subprocess(executable: URL(fileURLWithPath: "/bin/bash")).run(
            ["-c", program], environment: ["PATH": bin + ":/usr/bin:/bin", "LANG": "C.UTF-8"], timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test("bash completes subcommands, options, and habit and policy names from the store typed", arguments: [
        (["stackday", "ha"], ["habit"]),
        (["stackday", "habit", "a"], ["add", "archive"]),
        (["stackday", "today", "--js"], ["--json"]),
        (["stackday", "calendar", "water", "--co"], ["--color"]),
        (["stackday", "--db", "DB", "record", "wa"], ["water", "walk"]),
        (["stackday", "--db", "DB", "policy", "show", "gr"], ["grace"]),
        // A name with a space goes in as one word, escaped, and completes from part of it typed.
        (["stackday", "--db", "DB", "record", "물"], ["물\\ 마시기"]),
        (["stackday", "--db", "DB", "record", "물\\ 마"], ["물\\ 마시기"]),
        (["stackday", "--db", "DB", "record", "tea"], ["tea\\ \\(green\\)"]),
    ])
    func bash(words: [String], expected: [String]) throws {
        let cli = try CLIFixture()
        #expect(try cli.run(["habit", "add", "water"]).status == 0)
        #expect(try cli.run(["habit", "add", "walk"]).status == 0)
        #expect(try cli.run(["habit", "add", "물 마시기"]).status == 0)
        #expect(try cli.run(["habit", "add", "tea (green)"]).status == 0)
        let completed = try complete(words.map { $0 == "DB" ? cli.db : $0 }, cli: cli)
        #expect(Set(completed) == Set(expected), "\(words): \(completed)")
    }

    @Test("an option's value completes to what it takes: policy names, its words, file names", arguments: [
        (["stackday", "--db", "DB", "habit", "add", "x", "--schedule", "week"], ["weekdays", "weekly"]),
        (["stackday", "--db", "DB", "habit", "edit", "water", "--streak", "gr"], ["grace"]),
        (["stackday", "today", "--lang", ""], ["en", "ko"]),
        (["stackday", "calendar", "water", "--color", "a"], ["auto", "always"]),
        (["stackday", "export", "--format", ""], ["csv", "json", "ics", "loop"]),
        (["stackday", "import", "--format", "l"], ["loop"]),
        (["stackday", "import", "FOLDER/ev"], ["FOLDER/event.ics", "FOLDER/events.json"]),
        (["stackday", "habit", "add", "--from-ics", "FOLDER/event."], ["FOLDER/event.ics"]),
        (["stackday", "export", "--out", "FOLDER/events."], ["FOLDER/events.json"]),
        (["stackday", "--db", "FOLDER/ev", "today"], ["FOLDER/event.ics", "FOLDER/events.json"]),
    ])
    func values(words: [String], expected: [String]) throws {
        let cli = try CLIFixture()
        #expect(try cli.run(["habit", "add", "water"]).status == 0)
        let folder = cli.folder.path("files")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in ["event.ics", "events.json", "other.txt"] { try "x".write(toFile: folder + "/" + name, atomically: true, encoding: .utf8) }
        let line = words.map { $0 == "DB" ? cli.db : $0.replacingOccurrences(of: "FOLDER", with: folder) }
        // `--db FOLDER/ev` is completed, not the word after it.
        let completing = line.last == "today" ? Array(line.dropLast()) : line
        let completed = try complete(completing, cli: cli)
        #expect(Set(completed) == Set(expected.map { $0.replacingOccurrences(of: "FOLDER", with: folder) }), "\(words): \(completed)")
    }

    @Test("zsh completes a Korean habit name with a space as one quoted word",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh") || FileManager.default.isExecutableFile(atPath: "/bin/zsh")))
    func zshQuotes() throws {
        let cli = try CLIFixture()
        #expect(try cli.run(["habit", "add", "물 마시기"]).status == 0)
        let script = cli.folder.path("_stackday")
        try runStackday(["--generate-completion-script", "zsh"]).stdout.write(toFile: script, atomically: true, encoding: .utf8)
        let bin = cli.folder.path("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try? FileManager.default.createSymbolicLink(atPath: bin + "/stackday", withDestinationPath: stackday.executable.path)
        let program = """
            source \(script)
            COMP_WORDS=(stackday --db '\(cli.db)' record '물'); COMP_CWORD=4
            _stackday
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let zsh = FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh") ? "/usr/bin/zsh" : "/bin/zsh"
        let result = try Subprocess(executable: URL(fileURLWithPath: zsh)).run(["-c", program], environment: ["PATH": bin + ":/usr/bin:/bin", "LANG": "C.UTF-8"], timeout: 30)
        #expect(result.stdout.split(separator: "\n").map(String.init) == ["물\\ 마시기"], "\(result.stdout) \(result.stderr)")
    }

    @Test("fish's script completes option values and files where they belong")
    func fishValues() throws {
        let fish = try runStackday(["--generate-completion-script", "fish"]).stdout
        #expect(fish.contains("-l lang -x -a 'en ko'"))
        #expect(fish.contains("-l color -x -a 'auto always never'"))
        #expect(fish.contains("-l schedule -x -a '(stackday --complete policies 2>/dev/null)'"))
        #expect(fish.contains("-l from-ics -r -F") && fish.contains("-l db -r -F"))
        #expect(fish.contains("__fish_seen_subcommand_from import' -F"))
    }

    @Test("zsh and fish scripts name every top-level command; an unknown shell is a usage error")
    func otherShells() throws {
        let zsh = try runStackday(["--generate-completion-script", "zsh"]).stdout
        let fish = try runStackday(["--generate-completion-script", "fish"]).stdout
        #expect(zsh.hasPrefix("#compdef stackday") && zsh.contains("bashcompinit") && zsh.contains("complete -F _stackday stackday"))
        for command in ["habit", "record", "unskip", "log", "calendar", "policy", "serve"] {
            #expect(fish.contains("-a \(command) "), "fish: \(command)")
        }
        let wrong = try runStackday(["--generate-completion-script", "tcsh"])
        #expect(wrong.status == 64 && wrong.stderr.contains("bash, zsh or fish"))
    }

    @Test("the manual renders with man -l and has every section, every command and every global option")
    func manual() throws {
        let folder = try TemporaryFolder()
        let page = folder.path("stackday.1")
        let roff = try runStackday(["--generate-manual"]).stdout
        try roff.write(toFile: page, atomically: true, encoding: .utf8)
        let rendered = try Subprocess(executable: URL(fileURLWithPath: "/usr/bin/man")).run(
            ["-l", page], environment: ["MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "200", "LANG": "C.UTF-8"], timeout: 60)
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let text = rendered.stdout
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "GLOBAL OPTIONS", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES"] {
            #expect(text.contains("\n" + section + "\n"), "section \(section)")
        }
        for line in ["stackday habit add [<name>]", "stackday unskip <name>", "stackday policy upgrade <name>", "--database <url>",
                     "--no-cache", "--user <name>", "STACKDAY_DATABASE_URL", "NO_COLOR"] {
            // A synopsis that wraps is justified: words apart by more than one space.
            let flat = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            #expect(flat.contains(line), "\(line)")
        }
        #expect(!rendered.stderr.contains("warning"), "\(rendered.stderr)")
    }

    @Test("every subcommand's help names all the global options")
    func helpFooter() throws {
        let help = try runStackday(["record", "--help"]).stdout
        #expect(help.contains("Global options (--db, --database, --user, --tz, --now, --day-starts-at, --week-starts, --policies, --json, --no-cache, --isolate-policies, --quiet, --lang)"), "\(help)")
    }
}
