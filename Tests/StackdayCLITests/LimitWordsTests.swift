import Foundation
import Testing
import StackDayTestSupport

/// A limit reads as a limit on every surface of the command line: an at-most habit's target is
/// "at most", its amount "3 of at most 2", and a day past the limit is `over`, from the moment it
/// goes over; a goal reads as before.
@Suite("limits read as limits from the command line")
struct LimitWordsTests {
    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("a coffee limit of 2 cups: added, gone over today and yesterday, then read back by today, show, explain and calendar, in both languages")
    func journey() throws {
        let cli = try CLIFixture()
        let added = try cli.run(["habit", "add", "coffee", "--progress", "at-most", "--progress-params", #"{"limit":2}"#, "--unit", "cups", "--start", "2026-10-01"])
        #expect(added.stdout == "Created 'coffee': at most 2 cups a day from 2026-10-01, schedule daily.\n", "\(added.stdout)\(added.stderr)")
        #expect(try cli.run(["habit", "add", "water", "--goal", "8", "--unit", "cups", "--start", "2026-10-01"]).stdout.contains("goal 8 cups a day"))
        for (amount, day) in [("1", "2026-10-09"), ("4", "2026-10-10"), ("2", "2026-10-11")] {
            #expect(try cli.run(["record", "coffee", amount, "--on", day]).status == 0)
        }
        #expect(try cli.run(["record", "water", "3"]).status == 0)

        // Within the limit today (2 of 2): met. One more cup: over, at once.
        #expect(try cli.run(["today"]).stdout.contains("2 of at most 2 cups  done"))
        #expect(try cli.run(["record", "coffee", "1"]).status == 0)
        let today = try cli.run(["today"]).stdout
        #expect(today.contains("3 of at most 2 cups  over the limit"), "\(today)")
        #expect(today.contains("3/8 cups             pending"), "\(today)")
        #expect(try cli.run(["--lang", "ko", "today"]).stdout.contains("최대 2 중 3 cups  한도 초과"))
        let rows = try #require(try Self.json(cli.run(["--json", "today"]).stdout)["habits"] as? [[String: Any]])
        let coffee = try #require(rows.first { $0["name"] as? String == "coffee" })
        let water = try #require(rows.first { $0["name"] as? String == "water" })
        #expect(coffee["state"] as? String == "over" && coffee["limit"] as? Double == 2 && coffee["total"] as? Double == 3)
        #expect(water["state"] as? String == "pending" && water["limit"] is NSNull && water["goal"] as? Double == 8)
        // `today --open` keeps a day that went over out of what is left to do.
        #expect(!(try cli.run(["today", "--pending"]).stdout.contains("coffee")))

        let show = try cli.run(["habit", "show", "coffee"]).stdout
        #expect(show.contains("limit        2 cups a day"), "\(show)")
        #expect(try cli.run(["habit", "show", "water"]).stdout.contains("goal         8 cups a day"))

        let explained = try cli.run(["explain", "coffee", "--from", "2026-10-09"]).stdout
        #expect(explained.contains("2026-10-09  completed  streak 9 (longest 9)  met: 1 of at most 2 cups"), "\(explained)")
        #expect(explained.contains("2026-10-10  over       streak 0 (longest 9)  over the limit: 4 of at most 2 cups"), "\(explained)")
        #expect(explained.contains("2026-10-11  over"), "\(explained)")
        let steps = try #require(try Self.json(cli.run(["--json", "explain", "coffee", "--from", "2026-10-10"]).stdout)["steps"] as? [[String: Any]])
        #expect(steps.map { ($0["outcome"] as? [String: Any])?["status"] as? String } == ["over", "over"])
        #expect(steps.allSatisfy { $0["limit"] as? Double == 2 })

        let days = try #require(try Self.json(cli.run(["--json", "calendar", "coffee"]).stdout)["days"] as? [[String: Any]])
        let states = Dictionary(uniqueKeysWithValues: days.compactMap { day in (day["day"] as? String).map { ($0, day["state"] as? String) } })
        #expect(states["2026-10-09"] == "completed" && states["2026-10-10"] == "over" && states["2026-10-11"] == "over")
    }
}
