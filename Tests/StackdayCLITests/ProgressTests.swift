import Foundation
import Testing
import StackDayTestSupport

/// Import and export show a progress line on a terminal (count, rate, a bar and the time left
/// where the total is known), nothing in a pipe, and nothing with `--quiet`.
@Suite("progress lines")
struct ProgressTests {
    /// An export of `habits` habits with `days` completions each, as CSV.
    static func archive(habits: Int, days: Int) -> String {
        var text = "kind,id,habit,name,day,archived_on,recorded_at,updated_at,amount,unit,schedule,schedule_params,progress,progress_params,streak,streak_params\n"
        let start = "2010-01-01"
        func id(_ kind: Int, _ number: Int) -> String {
            String(format: "%08X-0000-4000-8000-%012X", kind, number)
        }
        for habit in 0..<habits {
            text += "habit,\(id(1, habit)),,habit \(habit),\(start),,2026-01-01T00:00:00.000Z,2026-01-01T00:00:00.000Z,1,,daily,{},goal,{},strict,{}\n"
        }
        let first = Date(timeIntervalSince1970: 1_262_304_000) // 2010-01-01
        let format = ISO8601DateFormatter()
        format.formatOptions = [.withFullDate]
        for habit in 0..<habits {
            for offset in 0..<days {
                let day = format.string(from: first.addingTimeInterval(Double(offset) * 86_400))
                text += "completion,\(id(2, habit * days + offset)),\(id(1, habit)),,\(day),,\(day)T08:00:00.000Z,,1,,,,,,,\n"
            }
        }
        return text
    }

    @Test("import and export: a bar, the count, the rate on a terminal; nothing in a pipe or with --quiet; the same records either way")
    func progress() throws {
        let source = try CLIFixture()
        let file = source.folder.path("big.csv")
        try Self.archive(habits: 10, days: 1_000).write(toFile: file, atomically: true, encoding: .utf8)

        let shown = try source.onTerminal(["import", file])
        #expect(shown.status == 0, "\(shown.stdout)")
        #expect(shown.stdout.contains("importing ▕"), "\(shown.stdout)")
        #expect(shown.stdout.contains("10,000/10,000 records · "), "\(shown.stdout)")
        #expect(shown.stdout.contains("/s"), "\(shown.stdout)")
        #expect(shown.stdout.contains("\r\u{1B}[2KImported 10010 records; 0 already present."), "the line is not cleared before the summary")

        let piped = try CLIFixture()
        let quiet = try piped.run(["import", file])
        #expect(quiet.status == 0 && quiet.stderr.isEmpty && quiet.stdout == "Imported 10010 records; 0 already present.\n", "\(quiet.stderr)")

        let silenced = try CLIFixture()
        let still = try silenced.onTerminal(["--quiet", "import", file])
        #expect(still.status == 0 && !still.stdout.contains("importing") && still.stdout.contains("Imported 10010 records"), "\(still.stdout)")

        let exported = try source.onTerminal(["export", "--format", "csv", "--out", source.folder.path("out.csv")])
        #expect(exported.status == 0 && exported.stdout.contains("exporting ▕") && exported.stdout.contains("10/10 habits"), "\(exported.stdout)")
        // Any other command still running after STACKDAY_PROGRESS_AFTER seconds (1 unless set) says
        // so on a terminal, and clears the line before it prints.
        let slow = try source.onTerminal(["--no-cache", "stats"], environment: ["STACKDAY_PROGRESS_AFTER": "0"])
        #expect(slow.status == 0 && slow.stdout.contains("stackday stats: working… 0 s\r\u{1B}[2KHABIT"), "\(slow.stdout)")
        let hushed = try source.onTerminal(["--quiet", "--no-cache", "stats"], environment: ["STACKDAY_PROGRESS_AFTER": "0"])
        #expect(hushed.status == 0 && !hushed.stdout.contains("working"), "\(hushed.stdout)")
        // Under the threshold nothing is said (a generous one: a loaded machine may take a second here).
        let fast = try source.onTerminal(["today"], environment: ["STACKDAY_PROGRESS_AFTER": "30"])
        #expect(fast.status == 0 && !fast.stdout.contains("working"), "\(fast.stdout)")
        let again = try piped.run(["export", "--format", "csv"])
        #expect(again.stderr.isEmpty)
        #expect(try String(contentsOfFile: source.folder.path("out.csv"), encoding: .utf8) == again.stdout)
    }
}
