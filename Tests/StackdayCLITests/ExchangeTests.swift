import Foundation
import Testing
import StackDayTestSupport

@Suite("stackday export and import")
struct ExchangeTests {
    func populated() throws -> CLIFixture {
        let cli = try CLIFixture()
        try cli.run(["habit", "add", "water, \"cold\"", "--goal", "2.5", "--unit", "l", "--start", "2026-10-01"])
        try cli.run(["habit", "add", "gym", "--schedule", "weekly", "--schedule-params", #"{"days":["mon","thu"]}"#, "--streak", "grace", "--start", "2026-10-01"])
        try cli.run(["record", "water, \"cold\"", "0.1", "--on", "2026-10-02"])
        try cli.run(["record", "water, \"cold\"", "0.2", "--on", "2026-10-02"])
        try cli.run(["record", "gym", "--on", "2026-10-05", "--note", "leg day, \"heavy\"\n다리\tback\\slash"])
        try cli.run(["skip", "gym", "--from", "2026-10-08", "--to", "2026-10-09"])
        try cli.run(["habit", "archive", "gym", "--on", "2026-10-10"])
        return cli
    }

    @Test("export → import into an empty database → export is byte-identical; a second import changes nothing", arguments: ["json", "csv"])
    func roundTrip(format: String) throws {
        let source = try populated()
        let first = try source.run(["export", "--format", format])
        #expect(first.status == 0)
        let file = source.folder.path("export.\(format)")
        try first.stdout.write(toFile: file, atomically: true, encoding: .utf8)

        let target = try CLIFixture()
        let imported = try target.run(["import", file])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout == "Imported 7 records; 0 already present.\n")
        let second = try target.run(["export", "--format", format])
        #expect(second.stdout == first.stdout)
        let log = try jsonObject(try target.run(["log", "gym", "--json"]).stdout)
        let notes = try #require(log["records"] as? [[String: Any]]).map { $0["note"] as? String }
        #expect(notes == ["leg day, \"heavy\"\n다리\tback\\slash"], "\(notes)")
        let again = try target.run(["import", file])
        #expect(again.stdout == "Imported 0 records; 7 already present.\n")
        #expect(try target.run(["export", "--format", format]).stdout == first.stdout)
    }

    @Test("a malformed row names file, line and column, and nothing is written", arguments: [
        ("csv", 5, "2026-13-02", "export.csv:6:5: day: month 13 does not exist"),
        ("json", 0, "", "export.json:"),
    ])
    func malformed(format: String, line: Int, _: String, message: String) throws {
        let source = try populated()
        var text = try source.run(["export", "--format", format]).stdout
        if format == "csv" {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            // After the header, two habit rows and their two revision rows: the first completion.
            #expect(lines[line].hasPrefix("completion,"))
            lines[line] = lines[line].replacingOccurrences(of: "2026-10-02", with: "2026-13-02")
            text = lines.joined(separator: "\n")
        } else {
            text = text.replacingOccurrences(of: "\"completions\":[", with: "\"completions\":[{,")
        }
        let file = source.folder.path("export.\(format)")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let target = try CLIFixture()
        let result = try target.run(["import", file])
        #expect(result.status == 1)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(try target.run(["habit", "list", "--json"]).stdout == "{\"habits\":[],\"next\":null}\n")
    }

    @Test("Loop Habit Tracker's CSV folder")
    func loop() throws {
        let cli = try CLIFixture()
        let folder = cli.folder.path("loop")
        try FileManager.default.createDirectory(atPath: folder + "/001 Meditate", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/002 Water", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/003 Gym", withIntermediateDirectories: true)
        try """
        Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,Target Type,Target Value,Archived?
        001,Meditate,YES_NO,Did you meditate?,,1,1,#FF0000,,AT_LEAST,0,false
        002,Water,NUMERICAL,How much water?,,1,1,#00FF00,cups,AT_LEAST,8,false
        003,Gym,YES_NO,Gym?,,3,7,#0000FF,,AT_LEAST,0,true

        """.write(toFile: folder + "/Habits.csv", atomically: true, encoding: .utf8)
        try "Date,Value,Notes\n2026-10-03,YES_MANUAL,\"calm, slow\"\n2026-10-02,SKIP,\n2026-10-01,YES_AUTO,\n2026-09-30,NO,too tired\n2026-09-29,YES_MANUAL,\n"
            .write(toFile: folder + "/001 Meditate/Checkmarks.csv", atomically: true, encoding: .utf8)
        try "Date,Value,Notes\n2026-10-02,8000,\n2026-10-01,2500,\n"
            .write(toFile: folder + "/002 Water/Checkmarks.csv", atomically: true, encoding: .utf8)
        try "Date,Value,Notes\n2026-10-05,YES_MANUAL,\n"
            .write(toFile: folder + "/003 Gym/Checkmarks.csv", atomically: true, encoding: .utf8)
        let result = try cli.run(["import", folder])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Imported 9 records; 0 already present.\n1 note was on days with no record (not done, or skipped) and is not kept.\n")
        let log = try cli.run(["log", "Meditate"]).stdout
        #expect(log.contains("2026-10-03  1       2026-10-03 09:00 +09:00  calm, slow\n"), "\(log)")
        #expect(log.contains("2026-09-29  1       2026-09-29 09:00 +09:00\n"), "\(log)")
        #expect(try cli.run(["import", folder]).stdout.hasPrefix("Imported 0 records; 9 already present.\n"))
        let list = try cli.run(["habit", "list", "--json"]).stdout
        #expect(list.contains(#""name":"Meditate","position":2,"question":"Did you meditate?","revisions":1,"rules":{"createdAt":"#), "\(list)")
        // Loop's colours come as the nearest tags, and its order as positions.
        #expect(list.contains(#""colorTag":"red","description":null,"id":"#) && list.contains(#""colorTag":"green","description":null,"id":"#)
            && list.contains(#""colorTag":"indigo","description":null,"id":"#))
        #expect(list.contains(#""progress":{"name":"goal","params":{},"sha256":""#))
        #expect(list.contains(#""schedule":{"name":"daily","params":{},"sha256":""#))
        #expect(list.contains(#""startedOn":"2026-09-29""#))
        #expect(list.contains(#""from":"2026-10-01","goal":8,"#))
        #expect(list.contains(#""schedule":{"name":"times-per-week","params":{"times":3},"sha256":""#))
        // Loop's `Archived?`: the habit comes in archived, after its last mark.
        let archived = try cli.run(["habit", "list", "--archived", "--json"]).stdout
        #expect(archived.contains(#""archivedOn":"2026-10-05""#) && archived.contains(#""name":"Gym""#) && !archived.contains("Meditate"), "\(archived)")
        #expect(!(try cli.run(["habit", "list", "--active"]).stdout.contains("Gym")))
        let both = try cli.run(["habit", "list", "--active", "--archived"])
        #expect(both.status == 64 && both.stderr.contains("--active and --archived cannot be used together"), "\(both.stderr)")
        let export = try cli.run(["export", "--format", "csv"]).stdout
        #expect(export.contains(",2026-10-01,,") && export.contains(",2.5,"))
    }

    @Test("a Loop folder with a future checkmark or a value that is no amount is refused whole, naming the row", arguments: [
        ("2099-01-01,YES_MANUAL,", false, "Checkmarks.csv:3:1: 2099-01-01 is after today"),
        ("2026-10-03,nan,", true, "Checkmarks.csv:3:2: Value 'nan' is not an amount"),
        ("2026-10-03,inf,", true, "Checkmarks.csv:3:2: Value 'inf' is not an amount"),
        ("2026-10-03,-5,", true, "Checkmarks.csv:3:2: Value '-5' is not an amount"),
    ])
    func loopRefused(row: String, numerical: Bool, message: String) throws {
        let cli = try CLIFixture()
        let folder = cli.folder.path("loop")
        try FileManager.default.createDirectory(atPath: folder + "/001 Water", withIntermediateDirectories: true)
        try """
        Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,Target Type,Target Value,Archived?
        001,Water,\(numerical ? "NUMERICAL" : "YES_NO"),?,,1,1,#00FF00,cups,AT_LEAST,8,false

        """.write(toFile: folder + "/Habits.csv", atomically: true, encoding: .utf8)
        try "Date,Value,Notes\n2026-10-02,\(numerical ? "8000" : "YES_MANUAL"),\n\(row)\n-1 is fine,,\n"
            .replacingOccurrences(of: "-1 is fine,,\n", with: numerical ? "2026-10-04,-1,\n" : "")
            .write(toFile: folder + "/001 Water/Checkmarks.csv", atomically: true, encoding: .utf8)
        let result = try cli.run(["import", folder])
        #expect(result.status == 1)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(try cli.run(["habit", "list", "--json"]).stdout == "{\"habits\":[],\"next\":null}\n")
    }
}
