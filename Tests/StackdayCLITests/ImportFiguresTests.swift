import Foundation
import Testing
import StackDayTestSupport

/// An import leaves every imported habit's figures in the evaluation cache, so the first read of
/// an imported user reads them instead of evaluating its whole history.
@Suite("figures ready after an import")
struct ImportFiguresTests {
    @Test("after an import each habit has today's figures cached, equal to a --no-cache evaluation; --no-cache imports write none")
    func cachedAfterImport() throws {
        let cli = try CLIFixture()
        let file = cli.folder.path("archive.csv")
        try ProgressTests.archive(habits: 4, days: 400).write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try cli.run(["import", file]).status == 0)
        let rows = SQLiteShell.run(cli.db, "SELECT count(*) FROM evaluation_cache WHERE summary IS NOT NULL AND summary_as_of IS NOT NULL")
        #expect(rows == ["4"], "\(rows)")
        let cached = try cli.run(["stats", "--json"]).stdout
        #expect(try cli.run(["--no-cache", "stats", "--json"]).stdout == cached)

        let plain = try CLIFixture()
        #expect(try plain.run(["--no-cache", "import", file]).status == 0)
        #expect(SQLiteShell.run(plain.db, "SELECT count(*) FROM evaluation_cache") == ["0"])
    }
}
