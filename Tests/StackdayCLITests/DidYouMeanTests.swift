import Foundation
import Testing
import StackDayTestSupport

/// A misspelled command, option, habit or policy gets the closest known name, and only a close one.
@Suite("did you mean")
struct DidYouMeanTests {
    @Test("close misspellings are answered with the name meant; far ones with none", arguments: [
        (["record", "wter", "3"], "Error: no habit named 'wter'; did you mean 'water'?", 1),
        (["record", "Watr"], "Error: no habit named 'Watr'; did you mean 'water'?", 1),
        (["record", "zzzzzz"], "Error: no habit named 'zzzzzz'\n", 1),
        (["hbit", "list"], "Error: unknown command 'hbit'; did you mean 'habit'?", 64),
        (["habit", "lst"], "Error: unknown command 'lst'; did you mean 'list'?", 64),
        (["qqqq"], "Error: unknown command 'qqqq'\n", 64),
        (["today", "--jsn"], "Error: unknown option '--jsn'; did you mean '--json'?", 64),
        (["stats", "--no-cahce"], "Error: unknown option '--no-cahce'; did you mean '--no-cache'?", 64),
        (["policy", "show", "grase"], "did you mean 'grace'?", 1),
        (["policy", "upgrade", "grase"], "Error: no such policy: grase; did you mean 'grace'?", 1),
        (["habit", "add", "run", "--schedule", "dayly"], "did you mean 'daily'?", 1),
    ])
    func suggestion(arguments: [String], message: String, status: Int32) throws {
        let cli = try CLIFixture()
        #expect(try cli.run(["habit", "add", "water"]).status == 0)
        let result = try cli.run(arguments)
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stderr.hasPrefix(message) || result.stderr.contains(message), "\(result.stderr)")
        if !message.contains("did you mean") { #expect(!result.stderr.contains("did you mean"), "\(result.stderr)") }
    }

    @Test("the API's 404 carries the same hint")
    func api() throws {
        let cli = try CLIFixture()
        #expect(try cli.run(["habit", "add", "water"]).status == 0)
        let json = try cli.run(["record", "wter", "--json"])
        #expect(json.stderr.contains(#""code":"habit_not_found""#) && json.stderr.contains("did you mean 'water'?"), "\(json.stderr)")
    }
}
