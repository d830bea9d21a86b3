import Foundation
import Testing
import StackDayTestSupport

/// Seeded random archives in the export's JSON layout, covering every built-in policy, archived
/// habits with records after their archive day, records before the start day, skips, Unicode
/// names and amounts with fractions.
struct RandomArchive {
    static let schedules: [(String, String)] = [
        ("daily", "{}"), ("weekdays", "{}"), ("weekly", #"{"days":["mon","thu"]}"#), ("every-n-days", #"{"every":3}"#),
        ("monthly-day", #"{"day":15}"#), ("monthly-last-day", "{}"), ("monthly-nth-weekday", #"{"nth":-1,"weekday":"fri"}"#),
        ("times-per-week", #"{"times":3}"#), ("times-per-month", #"{"times":8}"#), ("times-in-days", #"{"times":2,"days":5}"#),
        ("rrule", #"{"rule":"FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1"}"#),
    ]
    static let progresses: [(String, String)] = [("goal", "{}"), ("at-most", #"{"limit":2.5}"#)]
    static let streaks: [(String, String)] = [("strict", "{}"), ("grace", #"{"misses":1,"per":7}"#), ("freeze", #"{"earnEvery":3,"max":1}"#)]
    /// Names import accepts (a control character such as a tab is refused on every way in,
    /// `InputRulesTests`): quotes, commas, backslashes, combining marks, scripts, emoji.
    static let names = ["물 마시기", "読書", "🏃 run", "e\u{301}tude", "walk, \"fast\"", "back\\slash", "Ωmega", "독서", "運動", "plain"]

    var generator: SeededGenerator
    let today = (year: 2026, month: 10, day: 11)

    init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
    }

    mutating func uuid() -> String {
        let hex = Array("0123456789ABCDEF")
        var text = ""
        for index in 0..<32 {
            if [8, 12, 16, 20].contains(index) { text += "-" }
            let nibble: Int
            if index == 12 { nibble = 4 } else if index == 16 { nibble = 8 + Int.random(in: 0..<4, using: &generator) } else { nibble = Int.random(in: 0..<16, using: &generator) }
            text.append(hex[nibble])
        }
        return text
    }

    /// 2026-10-11 minus `offset` days, as ISO text.
    func day(_ offset: Int) -> String {
        var components = DateComponents()
        components.year = 2026; components.month = 10; components.day = 11 - offset
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let date = calendar.date(from: components)!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    mutating func instant() -> String {
        let millis = Int.random(in: 0..<1000, using: &generator)
        return "\(day(Int.random(in: 0..<200, using: &generator)))T\(String(format: "%02d:%02d:%02d.%03d", Int.random(in: 0..<24, using: &generator), Int.random(in: 0..<60, using: &generator), Int.random(in: 0..<60, using: &generator), millis))Z"
    }

    mutating func amount(plain: Bool) -> String {
        if plain { return "1" }
        let whole = Int.random(in: 0..<20, using: &generator)
        let thousandths = [0, 0, 5, 125, 333, 1].randomElement(using: &generator)!
        return whole == 0 && thousandths == 0 ? "0.5" : "\(whole).\(String(format: "%03d", thousandths))"
    }

    mutating func json() -> String {
        var habits: [String] = [], completions: [String] = [], skips: [String] = []
        let count = Int.random(in: 2...6, using: &generator)
        for name in Self.names.shuffled(using: &generator).prefix(count) {
            let id = uuid()
            let start = Int.random(in: 20...150, using: &generator)
            let archived = Bool.random(using: &generator) ? Int.random(in: 0..<start, using: &generator) : nil
            let plain = Bool.random(using: &generator)
            let goal = plain ? "1" : ["8", "2.5", "0.75", "30"].randomElement(using: &generator)!
            let unit = plain ? "" : ["cups", "km", "쪽", "分"].randomElement(using: &generator)!
            let schedule = Self.schedules.randomElement(using: &generator)!
            let progress = plain ? Self.progresses[0] : Self.progresses.randomElement(using: &generator)!
            let streak = Self.streaks.randomElement(using: &generator)!
            let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            let created = instant()
            habits.append(#"{"archivedOn":\#(archived.map { "\"\(day($0))\"" } ?? "null"),"createdAt":"\#(created)","goal":\#(goal),"id":"\#(id)","name":"\#(escaped)","progress":{"name":"\#(progress.0)","params":\#(progress.1)},"schedule":{"name":"\#(schedule.0)","params":\#(schedule.1)},"startedOn":"\#(day(start))","streak":{"name":"\#(streak.0)","params":\#(streak.1)},"unit":"\#(unit)","updatedAt":"\#(instant())"}"#)
            // Records from before the start to after the archive day: every state a store can hold.
            for _ in 0..<Int.random(in: 0...40, using: &generator) {
                let offset = Int.random(in: 0...(start + 5), using: &generator)
                completions.append(#"{"amount":\#(amount(plain: plain)),"day":"\#(day(offset))","habit":"\#(id)","id":"\#(uuid())","recordedAt":"\#(instant())"}"#)
            }
            for _ in 0..<Int.random(in: 0...5, using: &generator) {
                skips.append(#"{"day":"\#(day(Int.random(in: 0...start, using: &generator)))","habit":"\#(id)","id":"\#(uuid())","recordedAt":"\#(instant())"}"#)
            }
        }
        return #"{"format":"stackday","version":1,"habits":[\#(habits.joined(separator: ","))],"completions":[\#(completions.joined(separator: ","))],"skips":[\#(skips.joined(separator: ","))]}"#
    }
}

@Suite("restores: whatever export writes, import reads back")
struct RestoreTests {
    @Test("seeded random histories: export → import into an empty database → the same export and the same stats",
          arguments: Array(UInt64(1)...UInt64(8)))
    func roundTrip(seed: UInt64) throws {
        var random = RandomArchive(seed: seed)
        let source = try CLIFixture()
        let file = source.folder.path("random.json")
        try random.json().write(toFile: file, atomically: true, encoding: .utf8)
        let loaded = try source.run(["import", file])
        #expect(loaded.status == 0, "seed \(seed): \(loaded.stderr)")
        let stats = try source.run(["stats", "--json"]).stdout
        let exports = try ["json", "csv"].map { try source.run(["export", "--format", $0]).stdout }
        for (format, text) in zip(["json", "csv"], exports) {
            let copy = source.folder.path("export.\(format)")
            try text.write(toFile: copy, atomically: true, encoding: .utf8)
            let target = try CLIFixture()
            let imported = try target.run(["import", copy])
            #expect(imported.status == 0, "seed \(seed) \(format): \(imported.stderr)")
            #expect(try target.run(["export", "--format", "json"]).stdout == exports[0], "seed \(seed) \(format)")
            #expect(try target.run(["export", "--format", "csv"]).stdout == exports[1], "seed \(seed) \(format)")
            #expect(try target.run(["stats", "--json"]).stdout == stats, "seed \(seed) \(format)")
        }
    }

    @Test("archiving before a record, a later start and a skip after the archive day all restore")
    func editsThatLeaveRecordsOutside() throws {
        let cli = try CLIFixture()
        try cli.run(["habit", "add", "독서", "--start", "2026-10-01"])
        try cli.run(["habit", "add", "walk", "--start", "2026-10-01"])
        for day in ["2026-10-02", "2026-10-11"] { try cli.run(["record", "독서", "--on", day]) }
        try cli.run(["record", "walk", "--on", "2026-10-02"])
        try cli.run(["skip", "walk", "--on", "2026-10-09"])
        #expect(try cli.run(["habit", "archive", "독서", "--on", "2026-10-10"]).status == 0)
        #expect(try cli.run(["habit", "edit", "walk", "--start", "2026-10-05"]).status == 0)
        #expect(try cli.run(["habit", "archive", "walk", "--on", "2026-10-06"]).status == 0)
        for format in ["csv", "json"] {
            let file = cli.folder.path("backup.\(format)")
            #expect(try cli.run(["export", "--format", format, "--out", file]).status == 0)
            let target = try CLIFixture()
            let result = try target.run(["import", file])
            #expect(result.status == 0, "\(format): \(result.stderr)")
            #expect(result.stdout == "Imported 6 records; 0 already present.\n")
            #expect(try target.run(["export", "--format", format]).stdout == String(contentsOfFile: file, encoding: .utf8))
        }
    }

    @Test("a record of a habit that is not there names its id; the import writes nothing")
    func missingHabitByID() throws {
        let cli = try CLIFixture()
        let id = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
        let habit = "9B2C1D3E-0000-4000-8000-000000000001"
        let text = #"{"format":"stackday","version":1,"habits":[{"archivedOn":null,"createdAt":"2026-10-01T00:00:00.000Z","goal":1,"id":"\#(habit)","name":"walk","progress":{"name":"goal","params":{}},"schedule":{"name":"daily","params":{}},"startedOn":"2026-10-01","streak":{"name":"strict","params":{}},"unit":"","updatedAt":"2026-10-01T00:00:00.000Z"}],"completions":[{"amount":1,"day":"2026-10-02","habit":"\#(habit)","id":"00000000-0000-4000-8000-000000000002","recordedAt":"2026-10-02T00:00:00.000Z"},{"amount":1,"day":"2026-10-02","habit":"\#(id)","id":"00000000-0000-4000-8000-000000000003","recordedAt":"2026-10-02T00:00:00.000Z"}],"skips":[]}"#
        let file = cli.folder.path("orphan.json")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try cli.run(["import", file])
        #expect(result.status == 1)
        #expect(result.stderr == "Error: no habit with id \(id)\n")
        #expect(try cli.run(["habit", "list", "--json"]).stdout == "{\"habits\":[],\"next\":null}\n", "one transaction: the habit before it is not kept")
    }

    @Test("an export of another version is refused", arguments: ["99", "\"1\"", "null"])
    func version(value: String) throws {
        let cli = try CLIFixture()
        let file = cli.folder.path("v.json")
        try #"{"format":"stackday","version":\#(value),"habits":[],"completions":[],"skips":[]}"#.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try cli.run(["import", file])
        #expect(result.status == 1)
        #expect(result.stderr.contains("unsupported export version \(value); this StackDay reads versions 1 and 2"), "\(result.stderr)")
    }

    @Test("a day total cannot pass 1e12, by record or by import")
    func dayTotalLimit() throws {
        let cli = try CLIFixture()
        try cli.run(["habit", "add", "w", "--goal", "5", "--unit", "l", "--start", "2026-10-01"])
        #expect(try cli.run(["record", "w", "1e12", "--on", "2026-10-05"]).status == 0)
        let before = try cli.run(["export"]).stdout
        let again = try cli.run(["record", "w", "1", "--on", "2026-10-05"])
        #expect(again.status == 1)
        #expect(again.stderr == "Error: 'w' on 2026-10-05 would total more than 1000000000000, the most one day can hold\n")
        // The same through an import: the second of two 1e12 records on one day is refused, and nothing is written.
        let habit = try #require(try jsonObject(try cli.run(["habit", "show", "w", "--json"]).stdout)["id"] as? String)
        let file = cli.folder.path("big.json")
        try #"{"format":"stackday","version":1,"habits":[],"completions":[{"amount":5,"day":"2026-10-06","habit":"\#(habit)","id":"00000000-0000-4000-8000-00000000000A","recordedAt":"2026-10-06T00:00:00.000Z"},{"amount":1000000000000,"day":"2026-10-05","habit":"\#(habit)","id":"00000000-0000-4000-8000-00000000000B","recordedAt":"2026-10-05T00:00:00.000Z"}],"skips":[]}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try cli.run(["import", file])
        #expect(imported.status == 1)
        #expect(imported.stderr.contains("would total more than 1000000000000"))
        #expect(try cli.run(["export"]).stdout == before)
        for command in [["today"], ["stats"], ["report", "week"], ["calendar", "w"], ["habit", "show", "w"]] {
            #expect(try cli.run(command).status == 0, "\(command)")
        }
    }

    @Test("Loop frequencies that are not whole numbers are refused with file, line and column", arguments: ["nan", "inf", "9.3e18", "2.5", "0"])
    func loopFrequency(value: String) throws {
        let cli = try CLIFixture()
        let folder = cli.folder.path("loop")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try """
        Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,Target Type,Target Value,Archived?
        001,Meditate,YES_NO,,,\(value),7,#FF0000,,AT_LEAST,0,false

        """.write(toFile: folder + "/Habits.csv", atomically: true, encoding: .utf8)
        let result = try cli.run(["import", folder])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Habits.csv:2:6: FrequencyNumerator '\(value)' is not a whole number from 1 to 366"), "\(result.stderr)")
    }
}
