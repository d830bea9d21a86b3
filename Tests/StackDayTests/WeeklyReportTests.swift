import Foundation
import Testing
import StackDay
import StackDayTestSupport

@Suite("Weekly report")
struct WeeklyReportTests {
    func sampleContext() throws -> HabitContext {
        let context = HabitContext(store: InMemoryHabitStore(), clock: FixedClock(SampleData.now), boundary: DayBoundary(timeZone: SampleData.timeZone))
        try SampleData.load(into: context)
        return context
    }

    @Test("seed 000's sample prints seed 000's report byte for byte")
    func seedReportKorean() throws {
        let report = try BuildWeeklyReport(context: try sampleContext())()
        #expect(WeeklyReportFormatter(language: .korean).format(report) == SeedReport.korean)
    }

    @Test("the same report in English")
    func seedReportEnglish() throws {
        let report = try BuildWeeklyReport(context: try sampleContext())()
        let text = WeeklyReportFormatter(language: .english).format(report)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0] == "Weekly report: Mon 2026-10-05 – Sun 2026-10-11")
        #expect(lines[2] == "물 마시기 | ● ● ● ● ● ● ○ | total 54 잔 | met 6/7 days | streak 7 days (longest 7)")
        #expect(lines[5] == "Most consistent: 물 마시기 (6/7 days)")
    }

    @Test("an earlier week: days before the start are not asked for; streaks stay as of today")
    func earlierWeek() throws {
        let report = try BuildWeeklyReport(context: try sampleContext())(weekOf: day("2026-09-30"))
        #expect(report.firstDay == day("2026-09-28"))
        let water = try #require(report.lines.first)
        #expect(water.marks == [.rest, .rest, .rest, .met, .met, .unmet, .met])
        #expect(water.dueDays == 4)
        #expect(water.total == 30)
        #expect(water.streak == HabitStreak(current: 7, longest: 7))
    }

    @Test("the rest of the current week counts as due but not met")
    func midWeek() throws {
        let context = try sampleContext()
        let later = HabitContext(store: context.store, clock: FixedClock(instant("2026-10-14T12:00:00+09:00")), boundary: context.boundary)
        let report = try BuildWeeklyReport(context: later)()
        let water = try #require(report.lines.first)
        #expect(water.marks == Array(repeating: WeekMark.unmet, count: 7))
        #expect(water.metDays == 0 && water.dueDays == 7)
        #expect(water.streak.current == 0)
    }
}

@Suite("weekly report: units in Korean")
struct KoreanUnitTests {
    @Test("a Hangul or CJK counter is written on, a word in another script after a space, a symbol on", arguments: [
        ("잔", "잔"), ("분", "분"), ("cups", " cups"), ("km", " km"), ("км", " км"), ("%", "%"), ("", ""), ("回", "回"), ("ページ", "ページ"),
    ])
    func unit(unit: String, written: String) {
        #expect(WeeklyReportFormatter.koreanUnit(unit) == written)
    }
}
