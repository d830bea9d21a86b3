import Foundation
import Testing
import StackDayTestSupport

/// `habit move`, `--color-tag` and `--step` on the command line: the order, look and step a user
/// gives their habits, kept through export and import.
@Suite("habit order, colours and steps on the command line")
struct HabitOrderCommandTests {
    /// Habits read, water and walk, in that order; water counts millilitres by 250.
    func three() throws -> CLIFixture {
        let cli = try CLIFixture()
        #expect(try cli.run(["habit", "add", "read", "--color-tag", "teal"]).status == 0)
        #expect(try cli.run(["habit", "add", "water", "--goal", "2000", "--unit", "ml", "--step", "250"]).status == 0)
        #expect(try cli.run(["habit", "add", "walk"]).status == 0)
        return cli
    }

    func order(_ cli: CLIFixture) throws -> [String] {
        try cli.run(["habit", "list"]).stdout.split(separator: "\n").dropFirst().map { String($0.split(separator: " ")[0]) }
    }

    @Test("habit move puts a habit before another or last, and every list follows")
    func move() throws {
        let cli = try three()
        #expect(try order(cli) == ["read", "water", "walk"])
        let moved = try cli.run(["habit", "move", "walk", "--before", "READ"])
        #expect(moved.status == 0 && moved.stdout == "Moved 'walk'. Order: walk, read, water.\n", "\(moved)")
        #expect(try order(cli) == ["walk", "read", "water"])
        #expect(try cli.run(["habit", "move", "walk", "--last"]).status == 0)
        #expect(try order(cli) == ["read", "water", "walk"])
        let today = try cli.run(["today", "--json"]).stdout
        let positions = ["read", "water", "walk"].compactMap { today.range(of: "\"name\":\"\($0)\"")?.lowerBound }
        #expect(positions.count == 3 && positions == positions.sorted(), "today lists in the same order: \(today)")
        let json = try cli.run(["habit", "move", "water", "--before", "read", "--json"]).stdout
        #expect(json.contains(#""name":"water","position":1"#), "\(json)")
    }

    @Test("a move or a look refused is one line naming what was wrong, and nothing is written", arguments: [
        (["habit", "move", "walk"], 64, "say where to: --before OTHER or --last"),
        (["habit", "move", "walk", "--before", "read", "--last"], 64, "--before and --last cannot be used together"),
        (["habit", "move", "walk", "--before", "walk"], 1, "cannot move 'walk' before itself"),
        (["habit", "move", "wlak", "--last"], 1, "no habit named 'wlak'; did you mean 'walk'?"),
        (["habit", "move", "walk", "--before", "raed"], 1, "no habit named 'raed'; did you mean 'read'?"),
        (["habit", "edit", "walk", "--color-tag", "magenta"], 64, "invalid value for --color-tag: 'magenta' (use red, orange"),
        (["habit", "edit", "walk", "--step", "0"], 1, "a step must be a finite number from 0.001"),
        (["habit", "add", "run", "--step", "0.0001"], 1, "a step must be a finite number from 0.001"),
    ] as [([String], Int32, String)])
    func refused(arguments: [String], status: Int32, message: String) throws {
        let cli = try three()
        let before = try cli.snapshot()
        let result = try cli.run(arguments)
        #expect(result.status == status && result.stderr.hasPrefix("Error: " + message), "\(result.stderr)")
        #expect(try cli.snapshot() == before)
    }

    @Test("a colour and a step show in habit show, change with habit edit, and none takes the colour away")
    func look() throws {
        let cli = try three()
        let shown = try cli.run(["habit", "show", "water"]).stdout
        #expect(shown.contains("colour       none") && shown.contains("step         250 ml"), "\(shown)")
        #expect(try cli.run(["habit", "show", "read"]).stdout.contains("colour       teal"))
        #expect(try cli.run(["habit", "edit", "read", "--color-tag", "none", "--step", "2"]).stdout == "Updated 'read'.\n")
        let edited = try cli.run(["habit", "show", "read", "--json"]).stdout
        #expect(edited.contains(#""colorTag":null"#) && edited.contains(#""step":2"#) && edited.contains(#""revisions":1"#), "\(edited)")
    }

    @Test("order, colours and steps go through export and import, JSON and CSV alike, and an import into a list goes after it")
    func exported() throws {
        let cli = try three()
        #expect(try cli.run(["habit", "move", "walk", "--before", "read"]).status == 0)
        for format in ["json", "csv"] {
            let file = cli.folder.path("backup.\(format)")
            #expect(try cli.run(["export", "--format", format, "--out", file]).status == 0)
            let restored = try CLIFixture()
            #expect(try restored.run(["import", file]).status == 0)
            #expect(try order(restored) == ["walk", "read", "water"], "\(format)")
            #expect(try restored.run(["habit", "show", "read"]).stdout.contains("colour       teal"), "\(format)")
            #expect(try restored.run(["habit", "show", "water"]).stdout.contains("step         250 ml"), "\(format)")
            let held = try CLIFixture()
            #expect(try held.run(["habit", "add", "stretch"]).status == 0)
            let imported = try held.run(["import", file])
            #expect(imported.status == 0, "\(format): \(imported.stdout) \(imported.stderr)")
            #expect(try order(held) == ["stretch", "walk", "read", "water"], "\(format)")
        }
    }
}
