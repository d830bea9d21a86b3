import Foundation
import Testing
import StackDayTestSupport

/// What a habit and a record may hold is one rule in the domain: the API, the command line and
/// import refuse the same values with the same code and write nothing (sync's refusal of each is
/// `SyncSafetyTests.invalidValues`); a store an older build wrote with such a value still reads,
/// exports, and prints it escaped.
@Suite("one validation for every way of writing")
struct InputRulesTests {
    /// A value to refuse: the API request, the command, and how an export is altered to hold it.
    struct Case: CustomTestStringConvertible, Sendable {
        let label: String
        let method: String
        let path: String
        let body: String
        let command: [String]
        let archive: (from: String, to: String)
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(label: "a blank name", method: "POST", path: "/v1/habits", body: #"{"name":"   "}"#, command: ["habit", "add", "   "],
             archive: (#""name":"tea""#, #""name":"   ""#)),
        Case(label: "a name with a terminal escape", method: "POST", path: "/v1/habits", body: #"{"name":"evil\u001b]0;title\u0007"}"#,
             command: ["habit", "add", "evil\u{1B}]0;title\u{07}"], archive: (#""name":"tea""#, #""name":"tea\u001b]0;title\u0007""#)),
        Case(label: "a unit with a terminal escape", method: "POST", path: "/v1/habits", body: #"{"name":"x","unit":"cups\u001b[2J"}"#,
             command: ["habit", "add", "x", "--unit", "cups\u{1B}[2J"], archive: (#""unit":"cups""#, #""unit":"cups\u001b[2J""#)),
        Case(label: "a goal of 9e15", method: "POST", path: "/v1/habits", body: #"{"name":"x","goal":9e15}"#,
             command: ["habit", "add", "x", "--goal", "9000000000000000"], archive: (#""goal":2"#, #""goal":9000000000000000"#)),
        Case(label: "an amount of 9e15", method: "POST", path: "/v1/habits/water/records", body: #"{"amount":9e15}"#,
             command: ["record", "water", "9000000000000000"], archive: (#""amount":2"#, #""amount":9000000000000000"#)),
    ]

    @Test("the API, the command line and import refuse it with invalid_input and write nothing", arguments: cases)
    func refusedEverywhere(_ refused: Case) throws {
        let (cli, server, ana, _) = try ServeCommandTests().serve()
        defer { server.stop() }
        // An export holding a habit `tea` (goal 2 cups) and a record of 2, altered to hold the value.
        let source = try CLIFixture()
        #expect(try source.run(["habit", "add", "tea", "--goal", "2", "--unit", "cups", "--start", "2026-10-01"]).status == 0)
        #expect(try source.run(["record", "tea", "2", "--on", "2026-10-05"]).status == 0)
        let exported = try source.run(["export", "--format", "json"]).stdout
        #expect(exported.contains(refused.archive.from), "\(exported)")
        let archive = source.folder.path("altered.json")
        try exported.replacingOccurrences(of: refused.archive.from, with: refused.archive.to).write(toFile: archive, atomically: true, encoding: .utf8)

        #expect(try server.client.send("POST", "/v1/habits", token: ana, body: #"{"name":"water","goal":8,"unit":"cups"}"#).status == 201)
        let before = try cli.run(["--user", "ana", "export", "--format", "json"]).stdout
        let answer = try server.client.send(refused.method, refused.path, token: ana, body: refused.body)
        #expect(answer.status == 400 && answer.body.contains(#""code":"invalid_input""#), "API: \(answer.status) \(answer.body)")
        let command = try cli.run(["--user", "ana", "--json"] + refused.command)
        #expect(command.status == 1 && command.stderr.contains(#""code":"invalid_input""#), "CLI: \(command.status) \(command.stderr)")
        let imported = try cli.run(["--user", "ana", "--json", "import", archive])
        #expect(imported.status == 1 && imported.stderr.contains(#""code":"invalid_input""#), "import: \(imported.status) \(imported.stderr)")
        #expect(try cli.run(["--user", "ana", "export", "--format", "json"]).stdout == before, "something was written")
    }

    @Test("a name and unit an older build stored with control characters still read, export as they are, and print escaped")
    func olderRows() throws {
        let cli = try CLIFixture()
        #expect(try cli.run(["habit", "add", "tea", "--unit", "cups", "--start", "2026-10-01"]).status == 0)
        _ = SQLiteShell.run(cli.db, "UPDATE habits SET name = 'tea' || char(133) || char(27) || ']0;owned' || char(7), unit = 'cups' || char(27) || '[2J'")
        let listed = try cli.run(["habit", "list"])
        #expect(listed.status == 0)
        #expect(listed.stdout.contains(#"tea\x85\x1B]0;owned\x07"#) && listed.stdout.contains(#"cups\x1B[2J"#), "\(listed.stdout)")
        #expect(!listed.stdout.contains("\u{1B}") && !listed.stdout.contains("\u{07}") && !listed.stdout.contains("\u{85}"))
        // JSON escapes every control character itself (C1 too), so what it prints stays JSON.
        let json = try cli.run(["--json", "habit", "list"])
        let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let habits = parsed?["habits"] as? [[String: Any]]
        #expect(habits?.first?["name"] as? String == "tea\u{85}\u{1B}]0;owned\u{07}", "\(json.stdout)")
        #expect(json.stdout.contains(#"tea\u0085\u001b]0;owned\u0007"#), "\(json.stdout)")
        let week = try cli.run(["report", "week"])
        #expect(week.status == 0 && !week.stdout.contains("\u{1B}") && week.stdout.contains(#"\x1B"#), "\(week.stdout)")
        let exported = try cli.run(["export", "--format", "json"])
        #expect(exported.status == 0 && exported.stdout.contains(#"tea\u0085\u001b]0;owned\u0007"#), "\(exported.stdout)")
    }
}
