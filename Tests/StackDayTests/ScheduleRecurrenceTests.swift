import Testing
@testable import StackDay

/// Built-in schedules said as RFC 5545 rules, and the days each rule's Swift side calls due.
@Suite("schedule recurrences")
struct ScheduleRecurrenceTests {
    static let start = try! LocalDay(iso: "2026-11-01")

    @Test("each built-in that a rule states, as that rule", arguments: [
        ("daily", "{}", "FREQ=DAILY"),
        ("weekdays", "{}", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
        ("weekly", #"{"days":["fri","mon","wed"]}"#, "FREQ=WEEKLY;BYDAY=MO,WE,FR"),
        ("every-n-days", #"{"every":1}"#, "FREQ=DAILY"),
        ("every-n-days", #"{"every":3}"#, "FREQ=DAILY;INTERVAL=3"),
        ("monthly-day", #"{"day":15}"#, "FREQ=MONTHLY;BYMONTHDAY=15"),
        ("monthly-day", #"{"day":31,"shortMonth":"skip"}"#, "FREQ=MONTHLY;BYMONTHDAY=31"),
        ("monthly-day", #"{"day":30,"shortMonth":"last"}"#, "FREQ=MONTHLY;BYMONTHDAY=28,29,30;BYSETPOS=-1"),
        ("monthly-day", #"{"day":20,"shortMonth":"last"}"#, "FREQ=MONTHLY;BYMONTHDAY=20"),
        ("monthly-last-day", "{}", "FREQ=MONTHLY;BYMONTHDAY=-1"),
        ("monthly-nth-weekday", #"{"nth":2,"weekday":"tue"}"#, "FREQ=MONTHLY;BYDAY=2TU"),
        ("monthly-nth-weekday", #"{"nth":-1,"weekday":"fri"}"#, "FREQ=MONTHLY;BYDAY=-1FR"),
        ("rrule", #"{"rule":"FREQ=WEEKLY;UNTIL=20270630;BYDAY=MO"}"#, "FREQ=WEEKLY;UNTIL=20270630;BYDAY=MO"),
    ])
    func rules(name: String, parameters: String, rule: String) throws {
        let recurrence = try #require(ScheduleRecurrence(try PolicyChoice(name: name, parametersJSON: parameters), startedOn: Self.start))
        #expect(recurrence.rule == rule)
    }

    @Test("a quota, a script of one's own or parameters no rule reads have none", arguments: [
        ("times-per-week", #"{"times":3}"#), ("times-in-days", #"{"times":2,"days":5}"#), ("payday", "{}"),
        ("weekly", #"{"days":[]}"#), ("monthly-nth-weekday", #"{"nth":6,"weekday":"mon"}"#), ("rrule", #"{"rule":"FREQ=DAILY\r\nX:1"}"#),
    ])
    func none(name: String, parameters: String) throws {
        #expect(ScheduleRecurrence(try PolicyChoice(name: name, parametersJSON: parameters), startedOn: Self.start) == nil)
    }

    @Test("the Swift side of a rule calls due what the rule does", arguments: [
        ("monthly-day", #"{"day":31,"shortMonth":"last"}"#, ["2026-11-30", "2027-02-28", "2028-02-29", "2027-01-31"], ["2027-01-30", "2026-11-29"]),
        ("monthly-nth-weekday", #"{"nth":-1,"weekday":"fri"}"#, ["2026-11-27", "2027-01-29"], ["2026-11-20", "2027-01-22"]),
        ("monthly-nth-weekday", #"{"nth":5,"weekday":"mon"}"#, ["2026-11-30", "2027-03-29"], ["2026-12-28", "2026-11-23"]),
        ("every-n-days", #"{"every":3}"#, ["2026-11-01", "2026-11-04", "2027-10-30"], ["2026-10-29", "2026-11-02"]),
        ("weekly", #"{"days":["sun"]}"#, ["2026-11-01", "2026-11-08"], ["2026-11-02"]),
    ])
    func due(name: String, parameters: String, due: [String], notDue: [String]) throws {
        let recurrence = try #require(ScheduleRecurrence(try PolicyChoice(name: name, parametersJSON: parameters), startedOn: Self.start))
        let isDue = try #require(recurrence.isDue)
        for day in due { #expect(isDue(try LocalDay(iso: day)), "\(day)") }
        for day in notDue { #expect(!isDue(try LocalDay(iso: day)), "\(day)") }
    }
}
