import Foundation
import Testing
import StackDay
import StackDayLua

/// A recurrence as a calendar exports it, with the due days python-dateutil or
/// recurring-ical-events give for it (Tests/Calendar/pasted_recurrences.py, which CI also runs
/// against the `stackday` binary).
struct PastedCase: CustomTestStringConvertible, Sendable {
    let name: String
    let timeZone: String
    let text: String
    let start: String?
    let from: String
    let to: String
    let due: [String]
    let summary: String?
    var testDescription: String { name }

    static let all: [PastedCase] = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/pasted-recurrences.json")
        guard let text = try? String(contentsOf: file, encoding: .utf8), case .array(let items)? = try? JSONValue(parsing: text) else { return [] }
        return items.compactMap { item in
            guard let fields = item.objectValue, let name = fields["name"]?.stringValue, let zone = fields["timeZone"]?.stringValue,
                  let text = fields["text"]?.stringValue, let from = fields["from"]?.stringValue, let to = fields["to"]?.stringValue,
                  let due = fields["due"]?.arrayValue else { return nil }
            return PastedCase(name: name, timeZone: zone, text: text, start: fields["start"]?.stringValue, from: from, to: to,
                              due: due.compactMap(\.stringValue), summary: fields["summary"]?.stringValue)
        }
    }()
}

@Suite("pasted recurrences")
struct PastedRecurrenceTests {
    @Test func fixturesLoaded() {
        #expect(PastedCase.all.count >= 40)
    }

    @Test("the rrule policy gives the due days dateutil and recurring-ical-events give", arguments: PastedCase.all)
    func agrees(with example: PastedCase) throws {
        let zone = try #require(TimeZone(identifier: example.timeZone))
        let pasted = try PastedRecurrence(parsing: example.text, timeZone: zone)
        let start = try example.start.map { try LocalDay(iso: $0) } ?? pasted.start
        #expect(start?.iso == example.from)
        #expect(pasted.summary == example.summary)
        let due = try PolicyFixture().dueDays("rrule", from: example.from, to: example.to, params: pasted.parameters(habitStart: start),
                                              start: start?.iso)
        #expect(due == example.due)
    }

    /// An event of 07:00–07:30 in Seoul on Mondays, Wednesdays and Fridays, with `alarms` inside.
    static func event(start: String = "DTSTART;TZID=Asia/Seoul:20261207T070000", end: String = "DTEND;TZID=Asia/Seoul:20261207T073000",
                      alarms: [String]) -> String {
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "SUMMARY:run", start, end, "RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR"]
            + alarms.flatMap { ["BEGIN:VALARM", "ACTION:DISPLAY", $0, "END:VALARM"] } + ["END:VEVENT", "END:VCALENDAR"]).joined(separator: "\r\n")
    }

    @Test("an event's alarms become reminder times (before or after its start or end, or at an instant), else its start time")
    func reminders() throws {
        let seoul = try #require(TimeZone(identifier: "Asia/Seoul"))
        func times(_ text: String) throws -> [String] { try PastedRecurrence(parsing: text, timeZone: seoul).reminders.map(\.description) }
        #expect(try times(Self.event(alarms: ["TRIGGER:-PT15M"])) == ["06:45"])
        #expect(try times(Self.event(alarms: ["TRIGGER:-PT15M", "TRIGGER;RELATED=START:-P1DT1H", "TRIGGER;RELATED=END:PT5M"])) == ["06:00", "06:45", "07:35"])
        // An instant in UTC is its time of day in the habit's zone (09:30Z is 18:30 in Seoul).
        #expect(try times(Self.event(alarms: ["TRIGGER;VALUE=DATE-TIME:20261207T093000Z"])) == ["18:30"])
        // No alarm: the event's start.
        #expect(try times(Self.event(alarms: [])) == ["07:00"])
        // A UTC start is the habit's time of day.
        #expect(try times(Self.event(start: "DTSTART:20261206T220000Z", end: "DTEND:20261206T223000Z", alarms: [])) == ["07:00"])
        // An all-day event: no time without an alarm; an alarm 15 hours before its day is 09:00.
        let allDay = Self.event(start: "DTSTART;VALUE=DATE:20261207", end: "DTEND;VALUE=DATE:20261208", alarms: [])
        #expect(try times(allDay) == [])
        #expect(try times(Self.event(start: "DTSTART;VALUE=DATE:20261207", end: "DTEND;VALUE=DATE:20261208", alarms: ["TRIGGER:-PT15H"])) == ["09:00"])
        // A trigger that is no duration nor instant is refused.
        #expect(throws: PastedRecurrenceError.self) { try times(Self.event(alarms: ["TRIGGER:soon"])) }
    }

    @Test("day 29 to 31 of each month says what short months do: monthly-day as its shortMonth says, a calendar rule skips them")
    func shortMonths() throws {
        #expect(ShortMonthRule(PolicyChoice(name: "monthly-day", parameters: ["day": .number(31)])) .map { ($0.day, $0.takesLastDay, $0.shortMonths) }
            .map { "\($0)" } == "(31, false, [2, 4, 6, 9, 11])")
        #expect(ShortMonthRule(PolicyChoice(name: "monthly-day", parameters: ["day": .number(30), "shortMonth": .string("last")]))?.takesLastDay == true)
        #expect(ShortMonthRule(PolicyChoice(name: "monthly-day", parameters: ["day": .number(28)])) == nil)
        let rule = try #require(ShortMonthRule(PolicyChoice(name: "rrule", parameters: ["rule": .string("FREQ=MONTHLY;BYMONTHDAY=1,29")])))
        #expect(rule.day == 29 && rule.isCalendarRule && !rule.takesLastDay && rule.shortMonths == [2])
        // Already the month's last day: nothing to say.
        #expect(ShortMonthRule(PolicyChoice(name: "rrule", parameters: ["rule": .string("FREQ=MONTHLY;BYMONTHDAY=-1")])) == nil)
        #expect(ShortMonthRule(PolicyChoice(name: "rrule", parameters: ["rule": .string("FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1")])) == nil)
    }

    @Test("a UTC UNTIL is the day of that instant in the event's zone")
    func utcUntil() throws {
        let seoul = try #require(TimeZone(identifier: "Asia/Seoul"))
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        // 14:59:59Z is 23:59:59 in Seoul and 10:59:59 in New York, the same day; 15:00Z is the next day in Seoul.
        #expect(try PastedRecurrence(parsing: "RRULE:FREQ=DAILY;UNTIL=20270630T145959Z", timeZone: seoul).rule == "FREQ=DAILY;UNTIL=20270630")
        #expect(try PastedRecurrence(parsing: "RRULE:FREQ=DAILY;UNTIL=20270630T150000Z", timeZone: seoul).rule == "FREQ=DAILY;UNTIL=20270701")
        #expect(try PastedRecurrence(parsing: "RRULE:FREQ=DAILY;UNTIL=20270701T035959Z", timeZone: newYork).rule == "FREQ=DAILY;UNTIL=20270630")
        // DTSTART's zone decides, not the habit's.
        let text = "DTSTART;TZID=America/New_York:20261001T090000\nRRULE:FREQ=DAILY;UNTIL=20270701T035959Z"
        #expect(try PastedRecurrence(parsing: text, timeZone: seoul).rule == "FREQ=DAILY;UNTIL=20270630")
        #expect(try PastedRecurrence(parsing: "FREQ=DAILY;UNTIL=20270630T090000", timeZone: seoul).rule == "FREQ=DAILY;UNTIL=20270630")
        // A bare rule needs reading only for an UNTIL with a time, wherever it stands.
        for (text, reads) in [("FREQ=DAILY;UNTIL=20270630T090000Z", true), ("freq=weekly;until=20270630t090000;byday=mo", true),
                              ("FREQ=DAILY;UNTIL=20270630", false), ("FREQ=DAILY;UNTIL=20270630T0900", false),
                              ("FREQ=DAILY;UNTIL=2027063XT090000", false), ("FREQ=DAILY;COUNT=3", false), ("UNTIL=", false)] {
            #expect(PastedRecurrence.needsReading(text) == reads, "\(text)")
        }
    }

    @Test("what cannot be one day-level rule is refused with a sentence", arguments: [
        ("RRULE:FREQ=DAILY\nRRULE:FREQ=WEEKLY", "2 RRULE lines"),
        ("BEGIN:VEVENT\nDTSTART:20261001T090000\nSUMMARY:x\nEND:VEVENT", "does not repeat"),
        ("BEGIN:VEVENT\nRRULE:FREQ=DAILY\nEND:VEVENT\nBEGIN:VEVENT\nRRULE:FREQ=WEEKLY\nEND:VEVENT", "2 recurring events"),
        ("DTSTART:20261001\nEXRULE:FREQ=WEEKLY", "EXRULE is not supported"),
        ("DTSTART:20261001", "no rule found"),
        ("DTSTART:20261001\nRRULE:FREQ=DAILY\nRDATE;VALUE=PERIOD:19960403T020000Z/19960403T040000Z", "VALUE=PERIOD is not supported"),
        ("DTSTART:20261341\nRRULE:FREQ=DAILY", "'20261341' is not a date"),
        ("every day at nine\nRRULE:FREQ=DAILY", "is not a calendar line"),
    ])
    func refused(_ text: String, _ expected: String) {
        do {
            _ = try PastedRecurrence(parsing: text, timeZone: .gmt)
            Issue.record("read \(text)")
        } catch {
            #expect(error.description.contains(expected), "\(error)")
        }
    }

    @Test("a summary's escapes are undone; a moved occurrence leaves its day and adds the new one")
    func summaryAndMoves() throws {
        let text = "BEGIN:VEVENT\r\nSUMMARY:Tea\\, then\r\n  a walk\r\nDTSTART;VALUE=DATE:20261102\r\nRRULE:FREQ=WEEKLY\r\nEND:VEVENT\r\n"
            + "BEGIN:VEVENT\r\nRECURRENCE-ID;VALUE=DATE:20261109\r\nDTSTART;VALUE=DATE:20261110\r\nEND:VEVENT\r\n"
            + "BEGIN:VEVENT\r\nRECURRENCE-ID;VALUE=DATE:20261116\r\nDTSTART;VALUE=DATE:20261116\r\nSTATUS:CANCELLED\r\nEND:VEVENT\r\n"
        let pasted = try PastedRecurrence(parsing: text, timeZone: .gmt)
        #expect(pasted.summary == "Tea, then a walk")
        #expect(pasted.excluded.map(\.iso) == ["2026-11-09", "2026-11-16"])
        #expect(pasted.included.map(\.iso) == ["2026-11-10"])
    }
}
