import Foundation
import Testing
import StackDayTestSupport
@testable import stackday

/// `stackday help` in Korean: every text the help shows has its Korean, and `--lang ko` or a
/// Korean locale shows it.
@Suite("help in Korean")
struct KoreanHelpTests {
    /// Every text of the command tree the help can show.
    static func texts(_ spec: CommandSpec) -> [String] {
        [spec.abstract] + (spec.discussion.map { [$0] } ?? []) + spec.arguments.map(\.help) + spec.options.map(\.help)
            + spec.subcommands.flatMap(texts)
    }

    @Test("every command's abstract, discussion, arguments and options, and every global option, have their Korean")
    func complete() throws {
        let all = Self.texts(Stackday.root) + GlobalOptions.specs.map(\.help)
        let missing = Array(Set(all.filter { HelpWords.korean[$0] == nil })).sorted()
        if !missing.isEmpty {
            try? missing.joined(separator: "\n=====\n").write(toFile: NSTemporaryDirectory() + "missing-help.txt", atomically: true, encoding: .utf8)
        }
        #expect(missing.isEmpty, "\(missing.count) texts without Korean, the first: \(missing.first ?? "")")
    }

    @Test("--lang ko, or a Korean locale, shows the help in Korean; --lang en in English", arguments: [
        (["help", "--lang", "ko"], [String: String](), "개요: 습관을 기록하고, 스크립트로 정한 규칙으로 판정합니다."),
        (["help", "habit", "add"], ["LANG": "ko_KR.UTF-8"], "개요: 습관을 만듭니다."),
        (["habit", "add", "--help", "--lang", "ko"], [:], "개요: 습관을 만듭니다."),
        (["help", "habit", "add", "--lang", "en"], ["LANG": "ko_KR.UTF-8"], "OVERVIEW: Create a habit."),
    ])
    func shown(arguments: [String], environment: [String: String], first: String) throws {
        let help = try runStackday(arguments, environment: environment)
        #expect(help.status == 0 && help.stdout.hasPrefix(first + "\n"), "\(help.stdout.prefix(200))")
        if first.hasPrefix("개요") {
            #expect(help.stdout.contains("\n옵션:\n") && help.stdout.contains("사용법: stackday"), "\(help.stdout)")
        }
    }
}
