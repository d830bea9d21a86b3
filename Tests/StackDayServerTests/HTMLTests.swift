import Foundation
import Testing
import StackDay
import StackDayLua
@testable import StackDayServer

/// The year chart (the habit page's and `report html`'s), as text: what it labels, what it
/// escapes, where the score ends, and that it is sized by its viewBox alone.
@Suite("year chart")
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

    func chart(_ timeline: HabitTimeline, _ range: LocalDayRange, language: PageLanguage = .en) -> String {
        YearChartSVG(timeline: timeline, scores: HabitStatisticsCalculator.scores(timeline), range: range, words: PageWords(language: language)).render().markup
    }

    @Test("the chart labels the months whose first week it shows (en and ko), every other weekday, one cell a day, and has no fixed width", arguments: [
        ("2025-10-13", "2026-10-11", ["Nov", "Dec", "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct"]),
        ("2026-09-01", "2026-10-11", ["Sep", "Oct"]),
        ("2026-02-02", "2026-03-01", ["Feb"]),
    ])
    func months(first: String, last: String, months: [String]) throws {
        let timeline = try timeline(start: first, today: last, recorded: [0, 1, 3])
        let range = LocalDayRange(try LocalDay(iso: first), try LocalDay(iso: last))
        let svg = chart(timeline, range)
        #expect(svg.matches(of: /<text class="month"[^>]*>(\w+)<\/text>/).map { String($0.1) } == months)
        #expect(svg.matches(of: /<text class="weekday"[^>]*>(\w+)<\/text>/).map { String($0.1) } == ["Mon", "Wed", "Fri", "Sun"])
        let days = try LocalDay(iso: first).days(to: try LocalDay(iso: last)) + 1
        #expect(svg.matches(of: /<rect class="day"/).count == days)
        #expect(svg.matches(of: /data-state="met"/).count == 3)
        #expect(svg.contains("viewBox=\"0 0 ") && !svg.contains(" width=\"7") && !svg.hasPrefix("<svg width"))
        let korean = chart(timeline, range, language: .ko)
        #expect(korean.matches(of: /<text class="month"[^>]*>(\d+)월<\/text>/).count == months.count)
    }

    @Test("a habit's name is escaped in the chart")
    func escapedName() throws {
        let timeline = try timeline(name: "<b>bold</b> & co", start: "2026-10-01", today: "2026-10-11", recorded: [0])
        let svg = chart(timeline, LocalDayRange(try LocalDay(iso: "2026-10-01"), try LocalDay(iso: "2026-10-11")))
        #expect(!svg.contains("<b>") && svg.contains("&lt;b&gt;bold&lt;/b&gt; &amp; co"))
    }

    @Test("the score line ends at the score stats prints, one point per outcome day, on the heatmap's time axis")
    func scoreLine() throws {
        let timeline = try timeline(start: "2026-09-01", today: "2026-10-11", recorded: Array(0..<30).filter { $0 % 4 != 3 })
        let series = HabitStatisticsCalculator.scores(timeline)
        let statistics = try HabitStatisticsCalculator(streakCalculator: HabitStreakCalculator(policy: StrictStreak())).calculate(timeline)
        #expect(series.last?.score == statistics.score)
        #expect(series.count == timeline.outcomes(of: timeline.segments[0]).count)
        let svg = chart(timeline, LocalDayRange(try LocalDay(iso: "2026-09-01"), try LocalDay(iso: "2026-10-11")))
        let points = try #require(svg.firstMatch(of: /class="score"[^>]*points="([^"]*)"/)).1.split(separator: " ")
        #expect(points.count == series.count)
        #expect(svg.contains(">\(Int((statistics.score * 100).rounded()))%</text>"))
        // The last point sits over the last day's week column.
        let lastX = try #require(Double(points.last!.split(separator: ",")[0]))
        let lastCell = try #require(svg.firstMatch(of: /data-day="2026-10-11"[^>]* x="(\d+)"/)).1
        #expect(lastX >= Double(lastCell)! && lastX <= Double(lastCell)! + 11, "\(lastX) against the cell at \(lastCell)")
    }

    @Test("missed, skipped and not-due days carry a glyph of their own, so they are told apart without colour; the chart scrolls in its own box, the latest weeks first")
    func glyphs() throws {
        let store = InMemoryHabitStore()
        let now = try LocalDay(iso: "2026-10-11").firstInstant(in: zone.timeZone).addingTimeInterval(20 * 3600)
        let context = HabitContext(store: store, clock: FixedClock(now), boundary: zone, policies: try PolicyLibrary(searchPath: []))
        let first = try LocalDay(iso: "2026-09-28")
        try CreateHabit(context: context)(name: "gym", startedOn: first, schedule: PolicyChoice(name: "weekly", parameters: ["days": JSONValue.array([.string("mon"), .string("wed"), .string("fri")])]))
        try RecordCompletion(context: context)(habitName: "gym", on: first)
        try SkipDays(context: context)(habitName: "gym", days: LocalDayRange(first.adding(days: 2), first.adding(days: 2)))
        let timeline = try LoadTimeline(context: context)(habitName: "gym")
        let whole = chart(timeline, LocalDayRange(first, try LocalDay(iso: "2026-10-11")))
        // The chart without its legend (whose keys carry one glyph each).
        let svg = whole.components(separatedBy: "</svg></div>")[0]
        for state in ["missed", "skipped", "notDue"] {
            let cells = svg.components(separatedBy: "data-state=\"\(state)\"").count - 1
            let glyphs = svg.components(separatedBy: "data-glyph=\"\(state)\"").count - 1
            #expect(cells > 0 && glyphs == cells, "\(state): \(cells) cells, \(glyphs) glyphs")
        }
        #expect(svg.matches(of: /data-glyph=/).count == svg.matches(of: /data-state="(missed|skipped|notDue)"/).count)
        #expect(whole.hasPrefix(#"<div class="year-box" dir="rtl" tabindex="0" role="region""#) && whole.contains(#"<svg class="year" dir="ltr""#))
        #expect(whole.contains(#"<ul class="legend year-legend""#) && whole.contains("data-glyph=\"missed\" d=\"M3 3L8 8M8 3L3 8\""))
    }
}
