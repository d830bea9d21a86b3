import Foundation
import Testing
import StackDay
import StackDayTestSupport

/// `--lang ko` (or a Korean locale) prints every command's words in Korean: tables' headers,
/// states, `habit show`, the calendar's month, weekdays and legend, the confirmations and the
/// messages a user acts on. Each answer is compared with its golden file in Fixtures/korean.
@Suite("Korean throughout")
struct KoreanTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/korean")

    /// A water habit counted in 잔 and a Monday/Thursday gym habit, recorded, skipped and noted.
    static func fixture() throws -> CLIFixture {
        let cli = try CLIFixture()
        for setup in [
            ["habit", "add", "물", "--goal", "8", "--unit", "잔", "--start", "2026-10-01"],
            ["habit", "add", "gym", "--schedule", "weekly", "--schedule-params", #"{"days":["mon","thu"]}"#, "--start", "2026-10-01"],
            ["habit", "add", "독서", "--schedule", "times-per-week", "--schedule-params", #"{"times":3}"#, "--start", "2026-10-01"],
            ["record", "물", "3", "--on", "2026-10-11"], ["record", "물", "8", "--on", "2026-10-10", "--note", "비 오는 날"],
            ["record", "gym", "--on", "2026-10-05"], ["skip", "gym", "--on", "2026-10-08"], ["record", "독서", "--on", "2026-10-09"],
        ] {
            let result = try cli.run(setup)
            #expect(result.status == 0, "\(setup): \(result.stderr)")
        }
        return cli
    }

    @Test("each command's text matches its golden file", arguments: [
        ("today", ["today"]), ("stats", ["stats"]), ("calendar", ["calendar", "gym", "--color", "never"]), ("habit-show", ["habit", "show", "gym"]),
        ("log", ["log", "물"]), ("report-week", ["report", "week"]), ("record", ["record", "물", "1", "--note", "저녁"]),
        ("skip", ["skip", "독서", "--on", "2026-10-10"]), ("unskip", ["unskip", "gym", "--on", "2026-10-08"]),
        ("error-habit", ["record", "뭏", "1"]), ("error-future", ["record", "물", "1", "--on", "2026-10-12"]),
        ("error-plain", ["record", "gym", "--on", "2026-10-05"]), ("error-usage", ["log"]), ("error-command", ["hbit"]),
        ("error-option", ["record", "물", "--jsn"]), ("habit-list", ["habit", "list"]),
        ("habit-add", ["habit", "add", "명상", "--start", "2026-10-01"]), ("habit-edit", ["habit", "edit", "물", "--goal", "6"]),
        ("habit-archive", ["habit", "archive", "gym", "--on", "2026-10-10"]), ("habit-rename", ["habit", "rename", "gym", "운동"]),
        ("explain", ["explain", "물", "--from", "2026-10-08"]), ("policy-preview", ["policy", "preview", "weekly", "--params", #"{"days":["mon"]}"#, "--from", "2026-10-01", "--to", "2026-10-31"]),
        ("policy-simulate", ["policy", "simulate", "grace", "--history", "YYNY"]), ("policy-simulate-habit", ["policy", "simulate", "grace", "--habit", "물"]),
        ("policy-history", ["policy", "history", "gym"]), ("policy-check", ["policy", "check", "daily"]),
    ])
    func golden(name: String, command: [String]) throws {
        let cli = try Self.fixture()
        let result = try cli.run(["--lang", "ko"] + command)
        let text = result.stdout + result.stderr
        let file = Self.golden.appendingPathComponent("\(name).txt")
        if ProcessInfo.processInfo.environment["STACKDAY_UPDATE_GOLDEN"] == "1" { try text.write(to: file, atomically: true, encoding: .utf8) }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(text == expected, "\(name):\n\(text)")
        #expect(!text.contains("Error") && !text.contains("streak") && !text.contains("Today"), "English left in \(name)")
    }

    @Test("report week on a terminal lines up its columns by display width in both languages; piped, it is seed 000's layout", arguments: ["ko", "en"])
    func aligned(language: String) throws {
        let cli = try Self.fixture()
        let piped = try cli.run(["--lang", language, "report", "week"]).stdout
        #expect(piped.contains(language == "ko" ? "\ngym | ● · · · · · · | 합계 1 | " : "\ngym | ● · · · · · · | total 1 | "), "\(piped)")
        let shown = try cli.onTerminal(["--lang", language, "report", "week"]).stdout.replacingOccurrences(of: "\r\n", with: "\n")
        let lines = shown.split(separator: "\n").map(String.init).filter { $0.contains(" | ") }
        #expect(lines.count == 3)
        // The display column of each separator, counted in terminal cells (a Hangul syllable is two).
        let columns = lines.map { line -> [Int] in
            var cells = 0, found: [Int] = []
            for character in line {
                if character == "|" { found.append(cells) }
                cells += DisplayWidth.of(character)
            }
            return found
        }
        #expect(Set(columns).count == 1 && columns[0].count == 4, "\(lines)")
    }

    @Test("a Korean locale chooses Korean; --lang en and an English locale keep English")
    func locale() throws {
        let cli = try Self.fixture()
        #expect(try cli.run(["today"], environment: ["LANG": "ko_KR.UTF-8"]).stdout.hasPrefix("오늘, 2026-10-11"))
        #expect(try cli.run(["--lang", "en", "today"], environment: ["LANG": "ko_KR.UTF-8"]).stdout.hasPrefix("Today, 2026-10-11"))
        let missing = try cli.run(["record", "뭏", "1"], environment: ["LANG": "ko_KR.UTF-8"])
        #expect(missing.status == 1 && missing.stderr.hasPrefix("오류: 없는 습관입니다: '뭏'"), "\(missing.stderr)")
        #expect(try cli.run(["record", "뭏", "1"]).stderr.hasPrefix("Error: no habit named '뭏'"))
    }
}
