import Foundation
import Testing
import StackDayTestSupport

/// A quota habit ("3 times a week") described in its periods on every view: `today`, `stats`,
/// `habit show` and `report week`, in JSON and in words, in English and Korean.
@Suite("quota habits speak in periods")
struct QuotaViewTests {
    /// Sunday 2026-10-11, 20:00 in Seoul: the week of Mon 10-05 … Sun 10-11 is open.
    static let now = "2026-10-11T20:00:00+09:00"

    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    /// `gym`, 3 a week from Monday 09-28: met that week (3 days), 2 of 3 so far this week.
    func fixture() throws -> CLIFixture {
        let cli = try CLIFixture(now: Self.now)
        #expect(try cli.run(["habit", "add", "gym", "--schedule", "times-per-week", "--schedule-params", #"{"times":3}"#, "--start", "2026-09-28"]).status == 0)
        for day in ["2026-09-28", "2026-09-30", "2026-10-02", "2026-10-06", "2026-10-09"] {
            #expect(try cli.run(["record", "gym", "--on", day]).status == 0)
        }
        return cli
    }

    @Test("a calendar draws a missed week as missed, a met week's empty days as not due, the open week as to do; JSON says each day's period")
    func calendarWeeks() throws {
        let cli = try CLIFixture(now: "2026-10-30T12:00:00+09:00")
        #expect(try cli.run(["habit", "add", "gym", "--schedule", "3 times a week", "--start", "2026-10-05"]).status == 0)
        for day in ["2026-10-05", "2026-10-06", "2026-10-07", "2026-10-20"] { #expect(try cli.run(["record", "gym", "--on", day]).status == 0) }
        let drawn = try cli.run(["calendar", "gym", "--from", "2026-10-05", "--to", "2026-10-31", "--color", "never"]).stdout
        let monday = try #require(drawn.split(separator: "\n").first { $0.hasPrefix("Mon") })
        let thursday = try #require(drawn.split(separator: "\n").first { $0.hasPrefix("Thu") })
        // Weeks of 10-05 (met), 10-12 (missed), 10-19 (1 of 3: missed), 10-26 (open).
        #expect(monday.split(separator: " ").dropFirst() == ["█", "x", "x", "?"], "\(drawn)")
        #expect(thursday.split(separator: " ").dropFirst() == ["·", "x", "x", "?"], "\(drawn)")
        let json = try object(try cli.run(["calendar", "gym", "--from", "2026-10-12", "--to", "2026-10-26", "--json"]).stdout)
        let days = try #require(json["days"] as? [[String: Any]])
        #expect(days.first?["period"] as? String == "missed" && days.first?["state"] as? String == "notDue")
        #expect(days.last?["period"] as? String == "pending")
    }

    @Test("today --json: the open period (per, first, last, done, times) and countsIn, the same from the cache and without it",
          arguments: [[], ["--no-cache"]])
    func todayJSON(flags: [String]) throws {
        let cli = try fixture()
        for _ in 0..<2 {
            let today = try object(try cli.run(flags + ["today", "--json"]).stdout)
            let row = try #require((today["habits"] as? [[String: Any]])?.first)
            #expect(row["countsIn"] as? String == "weeks")
            let period = try #require(row["period"] as? [String: Any], "\(row)")
            #expect(period["per"] as? String == "week" && period["first"] as? String == "2026-10-05" && period["last"] as? String == "2026-10-11")
            #expect(period["done"] as? Int == 2 && period["times"] as? Int == 3)
            #expect(row["current"] as? Int == 1 && row["id"] is String && row["rules"] is [String: Any] && row.keys.contains("archivedOn"))
        }
        let stats = try object(try cli.run(flags + ["stats", "--json"]).stdout)
        let row = try #require((stats["habits"] as? [[String: Any]])?.first)
        #expect(row["countsIn"] as? String == "weeks" && row["completedDays"] as? Int == 1 && row["eligibleDays"] as? Int == 1, "\(row)")
    }

    @Test("made on a Saturday, 3 a week: today and report week agree the short first week needs 1, and its period closes on Sunday, with and without the cache",
          arguments: [[], ["--no-cache"]])
    func saturdayStart(flags: [String]) throws {
        let cli = try CLIFixture(now: "2026-12-05T12:00:00+09:00")
        #expect(try cli.run(["habit", "add", "gym", "--schedule", "3 times a week"]).status == 0)
        let today = try object(try cli.run(flags + ["today", "--json"]).stdout)
        let period = try #require((today["habits"] as? [[String: Any]])?.first?["period"] as? [String: Any])
        #expect(period["first"] as? String == "2026-12-05" && period["last"] as? String == "2026-12-06" && period["times"] as? Int == 1, "\(period)")
        #expect(try cli.run(flags + ["today"]).stdout.contains("0 of 1 this week"))
        let report = try object(try cli.run(flags + ["report", "week", "--json"]).stdout)
        let line = try #require((report["habits"] as? [[String: Any]])?.first)
        #expect(line["dueDays"] as? Int == 1 && line["metDays"] as? Int == 0, "\(line)")
        #expect(try cli.run(flags + ["report", "week"]).stdout.contains("met 0/1 time"))
        // Once done, both say met.
        #expect(try cli.run(["record", "gym"]).status == 0)
        #expect(try cli.run(flags + ["report", "week"]).stdout.contains("met 1/1 time"))
    }

    @Test("a day-by-day habit counts in days and has no period; a monthly and a rolling quota say theirs", arguments: [
        (["--schedule", "weekly", "--schedule-params", #"{"days":["mon","fri"]}"#], "days", nil as String?),
        (["--schedule", "times-per-month", "--schedule-params", #"{"times":4}"#], "months", "month"),
        (["--schedule", "times-in-days", "--schedule-params", #"{"times":2,"days":5}"#], "windows", "5"),
    ])
    func units(options: [String], countsIn: String, per: String?) throws {
        let cli = try CLIFixture(now: Self.now)
        #expect(try cli.run(["habit", "add", "h", "--start", "2026-10-01"] + options).status == 0)
        #expect(try cli.run(["record", "h", "--on", "2026-10-09"]).status == 0)
        let row = try #require((try object(try cli.run(["today", "--json"]).stdout)["habits"] as? [[String: Any]])?.first)
        #expect(row["countsIn"] as? String == countsIn)
        let period = row["period"] as? [String: Any]
        #expect(per == nil ? row["period"] is NSNull : ((period?["per"] as? String) ?? (period?["per"] as? Int).map(String.init)) == per, "\(row)")
        if countsIn == "windows" {
            #expect(period?["first"] as? String == "2026-10-07" && period?["done"] as? Int == 1 && period?["times"] as? Int == 2, "\(row)")
        }
    }

    @Test("the words say periods: today '2 of 3 this week', habit show 'N of M weeks', stats and report week 'streak 1 week'")
    func words() throws {
        let cli = try fixture()
        let today = try cli.run(["today"]).stdout
        #expect(today.contains("2 of 3 this week") && today.contains("streak 1 week"), "\(today)")
        let show = try cli.run(["habit", "show", "gym"]).stdout
        #expect(show.contains("2 of 3 this week") && show.contains("1 of 1 week (100%)") && show.contains("streak       1 week"), "\(show)")
        let stats = try cli.run(["stats"]).stdout
        #expect(stats.contains("1 week"), "\(stats)")
        let week = try cli.run(["report", "week"]).stdout
        #expect(week.contains("met 2/3 times | streak 1 week (longest 1)"), "\(week)")
        let korean = try cli.run(["--lang", "ko", "report", "week"]).stdout
        #expect(korean.contains("달성 2/3회 | 연속 1주 (최장 1주)"), "\(korean)")
        let koreanToday = try cli.run(["--lang", "ko", "today"]).stdout
        #expect(koreanToday.contains("이번 주 3회 중 2회"), "\(koreanToday)")
    }
}

@Suite("today for cron")
struct TodayPendingTests {
    @Test("today --pending lists what is still open; --exit-status exits 1 while anything is, 0 when nothing is, with no error line")
    func pending() throws {
        let cli = try CLIFixture(now: "2026-10-30T12:00:00+09:00")
        #expect(try cli.run(["habit", "add", "read", "--start", "2026-10-01"]).status == 0)
        #expect(try cli.run(["habit", "add", "gym", "--schedule", "mon wed fri", "--start", "2026-10-01"]).status == 0)
        #expect(try cli.run(["habit", "add", "tea", "--schedule", "tue thu", "--start", "2026-10-01"]).status == 0)
        let open = try cli.run(["today", "--pending", "--exit-status"])
        #expect(open.status == 1 && open.stderr.isEmpty, "\(open.stderr)")
        #expect(open.stdout.contains("read") && open.stdout.contains("gym") && !open.stdout.contains("tea"), "not due on a Friday: \(open.stdout)")
        #expect(try cli.run(["record", "read"]).status == 0)
        let json = try cli.run(["today", "--pending", "--json"])
        #expect(json.stdout.contains(#""name":"gym""#) && !json.stdout.contains(#""name":"read""#))
        #expect(try cli.run(["record", "gym"]).status == 0)
        let done = try cli.run(["today", "--pending", "--exit-status"])
        #expect(done.status == 0 && done.stdout.contains("Nothing left to do today."), "\(done.stdout)")
        // Without --exit-status the status says nothing about what is open.
        #expect(try cli.run(["habit", "add", "walk", "--start", "2026-10-01"]).status == 0)
        #expect(try cli.run(["today", "--pending"]).status == 0)
    }
}
