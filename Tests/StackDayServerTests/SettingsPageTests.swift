import Foundation
import StackDay
import StackDayLua
@testable import StackDayServer
import Testing

@Suite("settings page: what the last sync decided")
struct SettingsPageTests {
    let user = try! User(name: "ana", tokenSHA256: String(repeating: "0", count: 64), timeZone: "Asia/Seoul", dayStart: .midnight,
                         createdAt: Date(timeIntervalSince1970: 0))

    @Test("each decision is a line, names escaped, the time in the user's zone; none said when no sync needed one", arguments: [PageLanguage.en, .ko])
    func lines(language: PageLanguage) {
        let words = PageWords(language: language)
        let none = SettingsPage(user: user, decided: nil, words: words, csrf: "c").render()
        #expect(none.contains(#"data-sync-decided="none""#) && !none.contains("data-decided="))
        let decided = SyncDecided(
            device: "0123456789ABCDEF", at: Date(timeIntervalSince1970: 1_796_317_440), // 2026-12-03 17:04 UTC
            renamed: [SyncDecided.Renamed(from: "Walk", to: "Walk (2)")],
            overridden: [SyncDecided.Overridden(habit: "<b>novel</b>", field: .name, mine: "book", kept: "<b>novel</b>")],
            refused: [SyncDecided.Refused(kind: "completion", habit: "", day: "2026-11-30", code: "habit_deleted")])
        let page = SettingsPage(user: user, decided: decided, words: words, csrf: "c").render()
        #expect(page.contains(#"data-sync-decided="0123456789ABCDEF""#) && page.contains("<code>01234567</code>"))
        #expect(page.contains("2026-12-04 02:04"), "Seoul is 9 hours ahead")
        #expect(page.components(separatedBy: "data-decided=").count == 4)
        #expect(page.contains("Walk → Walk (2)") && page.contains("2026-11-30"))
        #expect(!page.contains("<b>novel</b>") && page.contains("&lt;b&gt;novel&lt;/b&gt;"))
        #expect(page.contains(language == .ko ? "동기화" : ">Sync<"))
    }
}

@Suite("the background lane")
struct BackgroundLaneTests {
    @Test("work runs on a lane thread, its answer or error comes back, and the worker's commit gate goes with it")
    func lane() throws {
        let lane = BackgroundLane(threads: 1)
        let caller = Thread.current
        #expect(try lane.run { Thread.current != caller ? 42 : 0 } == 42)
        struct Failure: Error {}
        #expect(throws: Failure.self) { try lane.run { throw Failure() } }
        // A request given up: its gate refuses the commit on the lane's thread too.
        #expect(throws: CommitRefused.self) {
            try CommitGate.withClaim({ false }) { try lane.run { try CommitGate.check() } }
        }
        #expect(throws: Never.self) { try lane.run { try CommitGate.check() } }
    }
}

@Suite("plain HTTP beyond loopback")
struct PlainHTTPWarningTests {
    @Test("a warning for plain HTTP on any address but loopback, unless a TLS proxy is in front", arguments: [
        ("127.0.0.1", false, false), ("127.1.2.3", false, false), ("0.0.0.0", false, true), ("192.168.1.20", false, true),
        ("0.0.0.0", true, false),
    ])
    func warning(host: String, behindProxy: Bool, warns: Bool) {
        let text = PlainHTTPWarning.text(host: host, port: 8080, behindProxy: behindProxy)
        #expect((text != nil) == warns)
        if let text { #expect(text.contains("\(host):8080") && text.contains("unencrypted") && text.contains("--behind-proxy")) }
    }
}

@Suite("parameter fields")
struct ParameterFieldsTests {
    @Test("a field a person types into shows the default as a placeholder, never as text to type after; a habit's own value fills it")
    func placeholders() throws {
        let listings = try PolicyLibrary(searchPath: []).catalog().filter { $0.roles.contains(.schedule) }
        let fields = ParameterFields(role: .schedule, listings: listings, words: PageWords(language: .en))
        let fresh = fields.render(current: PolicyChoice(name: "daily", parameters: [:]), label: "Schedule").markup
        #expect(fresh.contains(#"name="scheduleParam.rrule.rule" value="" placeholder="FREQ=WEEKLY;BYDAY=MO,WE""#), "\(fresh)")
        #expect(fresh.contains(#"name="scheduleParam.times-per-week.times" value="" placeholder="3""#))
        // A required choice has no default to start at: no weekday is ticked until one is chosen.
        #expect(fresh.contains(#"name="scheduleParam.weekly.days" value="mon">"#) && !fresh.contains(#"name="scheduleParam.weekly.days" value="mon" checked"#))
        // A default that is one (monthly-day's shortMonth) is still selected.
        #expect(fresh.contains("<option selected>skip</option>"))
        let own = fields.render(current: PolicyChoice(name: "rrule", parameters: ["rule": .string("FREQ=WEEKLY;BYDAY=MO")]), label: "Schedule").markup
        #expect(own.contains(#"name="scheduleParam.rrule.rule" value="FREQ=WEEKLY;BYDAY=MO">"#) || own.contains(#"value="FREQ=WEEKLY;BYDAY=MO" "#), "\(own)")
        #expect(!own.contains(#"placeholder="FREQ=WEEKLY;BYDAY=MO,WE""#))
    }
}

@Suite("the lab chart")
struct LabChartTests {
    @Test("the chart comes with a legend naming each line and the differing days' mark, in the page's language", arguments: [PageLanguage.en, .ko])
    func legend(language: PageLanguage) throws {
        let day = try LocalDay(iso: "2026-10-01")
        let series = [SimulatedDay(day: day, state: .completed, streak: HabitStreak(current: 1, longest: 1), score: 0.1)]
        let words = PageWords(language: language)
        let chart = LabChartSVG(current: series, proposed: series, differing: [day], words: words).render().markup
        let keys = chart.matches(of: /data-key="([a-z-]+)"/).map { String($0.1) }
        #expect(keys == ["current-score", "proposed-score", "current-streak", "proposed-streak", "diff"])
        #expect(chart.contains(words["Days that differ"]) && chart.contains("\(words["Score"]) · \(words["Proposed"])"))
        #expect(chart.components(separatedBy: "aria-hidden=\"true\"").count == 6, "the samples are decoration; the words carry the meaning")
    }
}

@Suite("schedules said in words on the web")
struct ScheduleTextFieldTests {
    @Test("the add and edit forms have a field for words or a pasted rule; filled, it is the schedule and the select is passed over")
    func field() throws {
        let html = ParameterFields.scheduleText(id: "new-schedule-text", words: PageWords(language: .ko)).markup
        #expect(html.contains(#"<textarea id="new-schedule-text" name="scheduleText""#) && html.contains("data-schedule-text"))
        #expect(html.contains(#"placeholder="월 수 금""#) && html.contains("캘린더"))
        #expect(ParameterFields.scheduleText(in: [("schedule", "daily"), ("scheduleText", "  주 3회\r\n")]) == "주 3회")
        #expect(ParameterFields.scheduleText(in: [("schedule", "daily"), ("scheduleText", "  ")]) == nil)
    }
}
