import Foundation
import StackDayTestSupport
import Testing

/// The blocks of README.md and docs/*.md marked `<!-- doc-test -->` run as written, in order, each
/// file in a scratch home of its own: a `sh` block must exit 0; each `$ …` line of a `console`
/// block must exit 0 and print what the lines under it show (`…` stands for any text).
///
/// `stackday` is the built binary with a fixed clock (`now=` in the marker, else
/// 2026-11-15T12:00:00+09:00) and zone (`tz=`, else +09:00), and `$STACKDAY_DB` a scratch file;
/// `127.0.0.1:8080` is a free port, and a line that starts a server on it in the background is
/// followed by a wait until it takes connections; `docs/` is the repository's; servers a block
/// starts are stopped when the file ends (the file's shell runs in a session of its own).
@Suite("documentation runs")
struct DocumentationTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// One marked block: where it is, how it runs, and for a console block each command with its output.
    struct Block {
        let line: Int
        let console: Bool
        let now: String
        let tz: String
        let text: String

        /// A console block's commands, each with the output shown under it.
        var steps: [(command: String, output: String)] {
            var steps: [(command: String, output: String)] = []
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("$ ") {
                    steps.append((String(line.dropFirst(2)), ""))
                } else if !steps.isEmpty {
                    steps[steps.count - 1].output += line + "\n"
                }
            }
            return steps
        }
    }

    /// The marked blocks of `file`, in order.
    static func blocks(in file: String) throws -> [Block] {
        let lines = try String(contentsOf: repository.appendingPathComponent(file), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        var blocks: [Block] = []
        var marker: [String: String]? = nil
        var index = 0
        while index < lines.count {
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("<!-- doc-test"), line.hasSuffix("-->") {
                var settings: [String: String] = [:]
                for word in line.dropFirst("<!-- doc-test".count).dropLast(3).split(separator: " ") {
                    let pair = word.split(separator: "=", maxSplits: 1).map(String.init)
                    if pair.count == 2 { settings[pair[0]] = pair[1] }
                }
                marker = settings
            } else if line.hasPrefix("```"), let settings = marker {
                let console = line == "```console"
                let start = index + 1
                var end = start
                while end < lines.count, lines[end].trimmingCharacters(in: .whitespaces) != "```" { end += 1 }
                // An indented block (in a list) is run without its indent.
                let indent = lines[index].prefix { $0 == " " }.count
                let body = lines[start..<end].map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) }.joined(separator: "\n")
                blocks.append(Block(line: index + 1, console: console, now: settings["now"] ?? "2026-11-15T12:00:00+09:00", tz: settings["tz"] ?? "+09:00",
                                    text: body))
                marker = nil
                index = end
            } else if !line.isEmpty {
                marker = nil
            }
            index += 1
        }
        return blocks
    }

    /// `text` with a wait after each line that starts a server in the background on `port`: the
    /// next line runs once the port takes connections, as it would for a person typing them.
    static func waitingForServers(_ text: String, port: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let command = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            guard command.contains(" serve"), command.contains("127.0.0.1:\(port)"), command.trimmingCharacters(in: .whitespaces).hasSuffix("&") else {
                return String(line)
            }
            return line + "\nuntil (exec 3<>/dev/tcp/127.0.0.1/\(port)) 2>/dev/null; do sleep 0.05; done"
        }.joined(separator: "\n")
    }

    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// Whether `actual` is what `shown` shows, `…` standing for any text within a line.
    static func matches(_ actual: String, _ shown: String) -> Bool {
        guard shown.contains("…") else { return actual == shown }
        let pattern = "^" + shown.components(separatedBy: "…").map(NSRegularExpression.escapedPattern(for:)).joined(separator: "[^\\n]*") + "$"
        return actual.range(of: pattern, options: .regularExpression) != nil
    }

    static let files = ["README.md"] + ((try? FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent("docs").path)) ?? [])
        .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }

    @Test("every marked block of the documentation runs as written", arguments: files)
    func runs(_ file: String) throws {
        let blocks = try Self.blocks(in: file)
        guard !blocks.isEmpty else { return }
        let scratch = try TemporaryFolder()
        let home = scratch.path("home")
        try FileManager.default.createDirectory(atPath: home + "/.config/stackday/policies", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: home + "/docs", withDestinationPath: Self.repository.appendingPathComponent("docs").path)
        let port = String(PostgresServer.freePort())
        // One shell for the whole file, so that a variable or a server one block makes is there for the next.
        var script = """
            set -e -o pipefail
            export HOME=\(Self.quoted(home)) LANG=C.UTF-8 LC_ALL=C.UTF-8 NO_COLOR=1 STACKDAY_DB=\(Self.quoted(home + "/stackday.sqlite"))
            unset STACKDAY_DATABASE_URL STACKDAY_USER STACKDAY_POLICIES STACKDAY_SERVER STACKDAY_TOKEN STACKDAY_CACERT XDG_CONFIG_HOME XDG_DATA_HOME
            cd "$HOME"
            curl() { command curl --retry-connrefused --retry 50 --retry-delay 0 --max-time 10 "$@"; }
            trap 'status=$?; trap "" TERM; kill -TERM 0 2>/dev/null; exit $status' EXIT

            """
        var outputs: [(block: Block, command: String, output: String, file: String)] = []
        for (number, block) in blocks.enumerated() {
            let text = Self.waitingForServers(block.text.replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(port)"), port: port)
            script += "stackday() { \(Self.quoted(stackday.executable.path)) --tz \(Self.quoted(block.tz)) --now \(Self.quoted(block.now)) \"$@\"; }\n"
            if block.console {
                for (step, (command, output)) in block.steps.enumerated() {
                    let out = scratch.path("out-\(number)-\(step)")
                    let shown = command.replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(port)")
                    script += "echo \(Self.quoted("\(file):\(block.line): $ \(command)")) > \"$HOME/../step\"\n{ \(shown)\n} > \(Self.quoted(out))\n"
                    outputs.append((block, command, output, out))
                }
            } else {
                script += "echo \(Self.quoted("\(file):\(block.line)")) > \"$HOME/../step\"\n\(text)\n"
            }
        }
        // A session of its own, so that the trap ends every server the blocks started (`kill 0`) and nothing else.
        let result = try Subprocess(executable: URL(fileURLWithPath: "/usr/bin/setsid")).run(["--wait", "/bin/bash", "-c", script], timeout: 300)
        let step = (try? String(contentsOfFile: scratch.path("step"), encoding: .utf8))?.trimmingCharacters(in: .newlines) ?? file
        #expect(result.status == 0 && !result.timedOut, "\(step) exited \(result.status): \(result.stderr)")
        guard result.status == 0 else { return }
        for (block, command, shown, out) in outputs {
            // A last line without its newline (curl's JSON) is shown as a line.
            var actual = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
            if !actual.isEmpty, !actual.hasSuffix("\n") { actual += "\n" }
            #expect(Self.matches(actual, shown), "\(file):\(block.line): $ \(command)\n--- shown\n\(shown)--- printed\n\(actual)")
        }
    }

    @Test("the worked example of docs/policies.md is marked, all 17 steps of it")
    func workedExample() throws {
        let steps = try Self.blocks(in: "docs/policies.md").filter(\.console).flatMap(\.steps)
        #expect(steps.filter { $0.command.hasPrefix("stackday policy upgrade best-of-three") }.count == 1)
        #expect(steps.count >= 17)
    }
}
