import Foundation
import Testing
import StackDayTestSupport

/// What `habit add` says of a schedule it read: an event's alarms kept as reminders, and what
/// short months do to day 29–31.
@Suite("pasted events and short months")
struct PastedEventTests {
    @Test("--from-ics keeps the event's alarm as a reminder, shown by habit add and habit show, in both languages")
    func alarms() throws {
        let cli = try CLIFixture(now: "2026-12-05T12:00:00+09:00")
        let event = ["BEGIN:VCALENDAR", "BEGIN:VEVENT", "SUMMARY:run", "DTSTART;TZID=Asia/Seoul:20261207T070000",
                     "RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT15M", "END:VALARM",
                     "END:VEVENT", "END:VCALENDAR"].joined(separator: "\r\n")
        let path = cli.folder.path("run.ics")
        try event.write(toFile: path, atomically: true, encoding: .utf8)
        let added = try cli.run(["habit", "add", "--from-ics", path])
        #expect(added.status == 0 && added.stdout.contains("Reminders from the event: 06:45"), "\(added.stdout)\(added.stderr)")
        #expect(try cli.run(["habit", "show", "run"]).stdout.contains("reminders    06:45"))
        #expect(try cli.run(["--lang", "ko", "habit", "show", "run"]).stdout.contains("06:45"))
        // A time given beside the event wins over its alarm.
        let given = try cli.run(["habit", "add", "walk", "--schedule", "RRULE:FREQ=DAILY\nDTSTART;TZID=Asia/Seoul:20261207T180000", "--remind", "20:00"])
        #expect(given.status == 0 && !given.stdout.contains("Reminders from the event"))
        #expect(try cli.run(["habit", "show", "walk"]).stdout.contains("20:00"))
    }

    @Test("day 31 said or pasted says which months it skips and how to take their last day; shortMonth last says so too")
    func shortMonths() throws {
        let cli = try CLIFixture(now: "2026-12-05T12:00:00+09:00")
        let said = try cli.run(["habit", "add", "rent", "--schedule", "monthly on the 31st"])
        #expect(said.stdout.contains("Months without day 31 (Feb, Apr, Jun, Sep, Nov) are not due; to take their last day instead: "
            + #"--schedule monthly-day --schedule-params '{"day":31,"shortMonth":"last"}'."#), "\(said.stdout)")
        let pasted = try cli.run(["habit", "add", "bill", "--schedule", "FREQ=MONTHLY;BYMONTHDAY=30"])
        #expect(pasted.stdout.contains("The calendar rule skips months without day 30 (Feb)"), "\(pasted.stdout)")
        let last = try cli.run(["--lang", "ko", "habit", "add", "pay", "--schedule", "monthly-day", "--schedule-params", #"{"day":31,"shortMonth":"last"}"#])
        #expect(last.stdout.contains("31일이 없는 달(2월, 4월, 6월, 9월, 11월)은 그 달의 마지막 날에 합니다"), "\(last.stdout)")
        // Taking the other is an edit; it says what it now does.
        let edited = try cli.run(["habit", "edit", "rent", "--schedule", "monthly-day", "--schedule-params", #"{"day":31,"shortMonth":"last"}"#])
        #expect(edited.stdout.contains("take their last day; to skip them instead"), "\(edited.stdout)")
        let plain = try cli.run(["habit", "add", "gym", "--schedule", "mon wed fri"])
        #expect(!plain.stdout.contains("Months without"))
    }
}
