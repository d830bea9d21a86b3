import Foundation
import Testing
import StackDayTestSupport

/// The console session in docs/policies.md, run as written: each `$ stackday …` line against a
/// scratch database, its output compared line for line.
@Suite("documented sessions")
struct DocumentedSessionTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let userFolder = "~/.config/stackday/policies/"

    /// The commands of the first `console` block after `heading`, each with the output it shows.
    static func session(in file: String, after heading: String) throws -> [(command: String, output: String)] {
        let text = try String(contentsOf: repository.appendingPathComponent(file), encoding: .utf8)
        let tail = try #require(text.range(of: heading)).upperBound
        let start = try #require(text.range(of: "```console\n", range: tail..<text.endIndex)).upperBound
        let end = try #require(text.range(of: "\n```", range: start..<text.endIndex)).lowerBound
        var steps: [(command: String, output: String)] = []
        for line in text[start..<end].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("$ ") {
                steps.append((String(line.dropFirst(2)), ""))
            } else if !steps.isEmpty {
                steps[steps.count - 1].output += line + "\n"
            }
        }
        return steps
    }

    @Test("docs/policies.md: changing a streak rule — pinning, revisions, upgrade, rollback and simulate")
    func versionedPolicies() throws {
        let steps = try Self.session(in: "docs/policies.md", after: "### Worked example: changing a streak rule")
        #expect(steps.count == 17)
        let cli = try CLIFixture(now: "2026-10-20T21:00:00+09:00")
        for (command, output) in steps {
            let words = command.split(separator: " ").map(String.init)
            switch words.first {
            case "cp":
                // Copies a file of the repository into the policy folder.
                #expect(words.count == 3 && words[2].hasPrefix(Self.userFolder), "\(command)")
                let target = words[2].dropFirst(Self.userFolder.count)
                let name = target.isEmpty ? URL(fileURLWithPath: words[1]).lastPathComponent : String(target)
                let destination = cli.folder.path("policies/\(name)")
                try? FileManager.default.removeItem(atPath: destination)
                try FileManager.default.copyItem(atPath: Self.repository.appendingPathComponent(words[1]).path, toPath: destination)
            case "stackday":
                let result = try cli.run(Array(words.dropFirst()))
                #expect(result.status == 0, "\(command): \(result.stderr)")
                #expect(result.stdout == output, "\(command)")
            default:
                Issue.record("unexpected command in the session: \(command)")
            }
        }
    }
}
