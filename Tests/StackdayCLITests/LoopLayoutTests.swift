import Foundation
import Testing
import StackDayTestSupport

/// Loop Habit Tracker's folders of every generation read, and StackDay's habits written back in
/// Loop's current layout.
@Suite("Loop's layouts, both ways")
struct LoopLayoutTests {
    func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test("Loop before 2.0: NumRepetitions and Interval, checkmarks without a header; question and description kept")
    func firstGeneration() throws {
        let cli = try CLIFixture()
        let folder = cli.folder.path("loop-1")
        try write("Position,Name,Question,Description,NumRepetitions,Interval,Color\n"
                  + "000,Read,Did you read today?,\"Twenty pages, at least\",3,7,#FF5722\n001,Walk,,,1,1,#4CAF50\n", to: folder + "/Habits.csv")
        try write("2026-10-05,2\n2026-10-04,0\n2026-10-02,2\n2026-09-30,2\n", to: folder + "/001 Read/Checkmarks.csv")
        try write("2026-10-05,2\n2026-10-04,2\n", to: folder + "/002 Walk/Checkmarks.csv")
        let result = try cli.run(["import", folder])
        #expect(result.status == 0 && result.stdout.hasPrefix("Imported 7 records"), "\(result.stdout)\(result.stderr)")
        let read = try cli.run(["habit", "show", "Read"]).stdout
        #expect(read.contains("question     Did you read today?") && read.contains("description  Twenty pages, at least"), "\(read)")
        let json = try cli.run(["habit", "show", "Read", "--json"]).stdout
        #expect(json.contains(#""question":"Did you read today?""#) && json.contains(#""description":"Twenty pages, at least""#))
        #expect(json.contains(#""schedule":{"name":"times-per-week","params":{"times":3}"#), "\(json)")
        #expect(try cli.run(["habit", "show", "Walk", "--json"]).stdout.contains(#""question":null"#))
    }

    @Test("the current layout with checkmark columns in another order, and FrequencyNumerator and FrequencyDenominator")
    func columnsInAnyOrder() throws {
        let cli = try CLIFixture()
        let folder = cli.folder.path("loop-2")
        try write("Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,Target Type,Target Value,Archived?\n"
                  + "001,Water,NUMERICAL,How much?,,1,1,#00FF00,cups,AT_LEAST,8,false\n", to: folder + "/Habits.csv")
        try write("Notes,Value,Date\nhot day,9000,2026-10-05\n,2500,2026-10-04\n", to: folder + "/001 Water/Checkmarks.csv")
        #expect(try cli.run(["import", folder]).status == 0)
        let log = try cli.run(["log", "Water"]).stdout
        #expect(log.contains("2026-10-05  9") && log.contains("hot day") && log.contains("2026-10-04  2.5"), "\(log)")
    }

    @Test("a header that names no Date or Value column is refused, naming the file and line")
    func badHeader() throws {
        let cli = try CLIFixture()
        let folder = cli.folder.path("loop-bad")
        try write("Position,Name,FrequencyNumerator,FrequencyDenominator\n001,Read,1,1\n", to: folder + "/Habits.csv")
        try write("When,Mark\n2026-10-05,2\n", to: folder + "/001 Read/Checkmarks.csv")
        let result = try cli.run(["import", folder])
        #expect(result.status != 0 && result.stderr.contains("Checkmarks.csv") && result.stderr.contains("header naming Date and Value"), "\(result.stderr)")
        #expect(try cli.run(["habit", "list", "--json"]).stdout == "{\"habits\":[],\"next\":null}\n")
    }

    @Test("export --format loop, imported into a fresh store, gives the same figures; what Loop cannot hold is said")
    func roundTrip() throws {
        let cli = try CLIFixture(now: "2026-11-30T20:00:00+09:00")
        #expect(try cli.run(["habit", "add", "walk", "--start", "2026-11-01", "--question", "Did you walk?", "--description", "After lunch"]).status == 0)
        #expect(try cli.run(["habit", "add", "water", "--goal", "8", "--unit", "cups", "--start", "2026-11-02", "--color-tag", "teal"]).status == 0)
        #expect(try cli.run(["habit", "add", "gym", "--schedule", "3 times a week", "--start", "2026-11-02"]).status == 0)
        #expect(try cli.run(["habit", "add", "coffee", "--progress", "at-most", "--progress-params", #"{"limit":2}"#, "--start", "2026-11-01"]).status == 0)
        #expect(try cli.run(["habit", "add", "yoga", "--schedule", "mon wed fri", "--start", "2026-11-01"]).status == 0)
        for day in ["02", "05", "09", "10", "20", "27"] {
            for (habit, amount) in [("walk", "1"), ("water", "5"), ("gym", "1"), ("coffee", "3"), ("yoga", "1")] {
                let recorded = try cli.run(["record", habit, amount, "--on", "2026-11-\(day)", "--note", "n \(day)"])
                #expect(recorded.status == 0, "\(habit) \(day): \(recorded.stderr)")
            }
        }
        #expect(try cli.run(["skip", "walk", "--on", "2026-11-12"]).status == 0)
        let out = cli.folder.path("to-loop")
        let exported = try cli.run(["export", "--format", "loop", "--out", out])
        #expect(exported.status == 0 && exported.stdout.contains("Wrote 5 habits in Loop's layout"), "\(exported.stdout)\(exported.stderr)")
        #expect(exported.stderr.contains("yoga: weekly") && exported.stderr.contains("3 in 7 days"), "\(exported.stderr)")
        let habits = try String(contentsOfFile: out + "/Habits.csv", encoding: .utf8)
        #expect(habits.hasPrefix("Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,Target Type,Target Value,Archived?\n"))
        #expect(habits.contains("001,walk,YES_NO,Did you walk?,After lunch,1,1,"), "\(habits)")
        #expect(FileManager.default.fileExists(atPath: out + "/002 water/Checkmarks.csv"))

        let fresh = try CLIFixture(now: "2026-11-30T20:00:00+09:00")
        #expect(try fresh.run(["import", out]).status == 0)
        func figures(_ fixture: CLIFixture) throws -> [String] {
            let stats = try #require(try JSONSerialization.jsonObject(with: Data(try fixture.run(["stats", "--json"]).stdout.utf8)) as? [String: Any])
            return try #require(stats["habits"] as? [[String: Any]]).filter { $0["name"] as? String != "yoga" }.map { row in
                ["name", "countsIn", "current", "longest", "completedDays", "eligibleDays", "rate", "score"].map { "\(row[$0] ?? "-")" }.joined(separator: " ")
            }.sorted()
        }
        #expect(try figures(fresh) == figures(cli))
        #expect(try fresh.run(["habit", "show", "walk"]).stdout.contains("Did you walk?"))
        // Nothing is written over.
        let again = try cli.run(["export", "--format", "loop", "--out", out])
        #expect(again.status != 0 && again.stderr.contains("not an empty folder"))
        #expect(try cli.run(["export", "--format", "loop"]).status == 64)
    }
}
