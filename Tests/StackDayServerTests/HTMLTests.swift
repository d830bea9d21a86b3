import Foundation
import Testing
import StackDay
import StackDayServer

/// The dashboard's pictures, as text: what they label, what they escape, where the score ends.
@Suite("dashboard pictures")
struct HTMLTests {
    let zone = DayBoundary(timeZone: TimeZone(secondsFromGMT: 0)!)

    /// A daily habit from `start`, recorded on the given day offsets, as of `today`.
    func timeline(name: String = "walk", start: String, today: String, recorded: [Int]) throws -> HabitTimeline {
        let store = InMemoryHabitStore()
        let now = try LocalDay(iso: today).firstInstant(in: zone.timeZone).addingTimeInterval(20 * 3600)
        let context = HabitContext(store: store, clock: FixedClock(now), boundary: zone)
        let first = try LocalDay(iso: start)
        try CreateHabit(context: context)(name: name, startedOn: first)
        for offset in recorded { try RecordCompletion(context: context)(habitName: name, on: first.adding(days: offset)) }
        return try LoadTimeline(context: context)(habitName: name)
    }

    @Test("escaping", arguments: [
        ("plain", "plain"), ("<script>", "&lt;script&gt;"), ("a & b", "a &amp; b"), ("\"q\" 'q'", "&quot;q&quot; &#39;q&#39;"), ("물 마시기", "물 마시기"),
    ])
    func escaping(text: String, escaped: String) {
        #expect(HTMLText.escape(text) == escaped)
    }

    @Test("a year heatmap labels the months whose first week it shows, Mon/Wed/Fri, and a five-shade legend", arguments: [
        ("2025-10-13", "2026-10-11", ["Nov", "Dec", "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct"]),
        ("2026-09-01", "2026-10-11", ["Sep", "Oct"]),
        ("2026-02-02", "2026-03-01", ["Feb"]),
    ])
    func heatmap(first: String, last: String, months: [String]) throws {
        let timeline = try timeline(start: first, today: last, recorded: [0, 1, 3])
        let svg = HeatmapSVG(timeline: timeline, range: LocalDayRange(try LocalDay(iso: first), try LocalDay(iso: last))).render()
        let labels = svg.matches(of: /<text class="month"[^>]*>(\w+)<\/text>/).map { String($0.1) }
        #expect(labels == months)
        #expect(svg.matches(of: /<text class="weekday"[^>]*>(\w+)<\/text>/).map { String($0.1) } == ["Mon", "Wed", "Fri"])
        #expect(svg.contains(">Less</text>") && svg.contains(">More</text>"))
        let days = try LocalDay(iso: first).days(to: try LocalDay(iso: last)) + 1
        #expect(svg.matches(of: /<rect class="day"/).count == days)
        #expect(svg.matches(of: /data-state="completed"/).count == 3)
    }

    @Test("a habit's name is escaped in every picture")
    func escapedName() throws {
        let timeline = try timeline(name: "<b>bold</b> & co", start: "2026-10-01", today: "2026-10-11", recorded: [0])
        let range = LocalDayRange(try LocalDay(iso: "2026-10-01"), try LocalDay(iso: "2026-10-11"))
        for svg in [HeatmapSVG(timeline: timeline, range: range).render(),
                    ScoreLineSVG(name: timeline.habit.name, series: HabitStatisticsCalculator.scores(timeline), range: range).render()] {
            #expect(!svg.contains("<b>") && svg.contains("&lt;b&gt;bold&lt;/b&gt; &amp; co"))
        }
    }

    @Test("the score line ends at the score stats prints, one point per outcome day")
    func scoreLine() throws {
        let timeline = try timeline(start: "2026-09-01", today: "2026-10-11", recorded: Array(0..<30).filter { $0 % 4 != 3 })
        let series = HabitStatisticsCalculator.scores(timeline)
        let statistics = try HabitStatisticsCalculator(streakCalculator: HabitStreakCalculator(policy: StrictStreak())).calculate(timeline)
        #expect(series.last?.score == statistics.score)
        #expect(series.count == timeline.outcomes(of: timeline.segments[0]).count)
        let svg = ScoreLineSVG(name: "walk", series: series, range: LocalDayRange(try LocalDay(iso: "2026-09-01"), try LocalDay(iso: "2026-10-11"))).render()
        let points = try #require(svg.firstMatch(of: /points="([^"]*)"/)).1.split(separator: " ")
        #expect(points.count == series.count)
        #expect(svg.contains(">\(Int((statistics.score * 100).rounded()))%</text>"))
    }
}
