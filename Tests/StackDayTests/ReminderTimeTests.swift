import Foundation
import Testing
import StackDay

/// Reminder times as people type them, and the ones refused.
@Suite("reminder times")
struct ReminderTimeTests {
    @Test("read, sorted and each kept once", arguments: [
        (["21:00"], "21:00"), (["21:00", "08:30"], "08:30,21:00"), (["08:00, 21:00"], "08:00,21:00"), (["08:00 21:00 08:00"], "08:00,21:00"),
        (["none"], ""), (["NONE"], ""), ([], ""), (["00:00", "23:59"], "00:00,23:59"),
    ] as [([String], String)])
    func read(texts: [String], stored: String) throws {
        #expect(ReminderTime.stored(try ReminderTime.list(texts)) == stored)
    }

    @Test("refused with the text that is not a time", arguments: [
        (["24:00"], "'24:00'"), (["9:00"], "'9:00'"), (["21:00", "noon"], "'noon'"), (["none", "21:00"], "'none'"), (["21:60"], "'21:60'"),
    ] as [([String], String)])
    func refused(texts: [String], named: String) {
        #expect(throws: ReminderTimeError.self) { try ReminderTime.list(texts) }
        do { _ = try ReminderTime.list(texts) } catch { #expect("\(error)".contains(named)) }
    }

    @Test("at most eight")
    func limit() throws {
        let nine = (0..<9).map { "0\($0):00" }
        #expect(throws: ReminderTimeError.tooMany(9)) { try ReminderTime.list(nine) }
        #expect(try ReminderTime.list(Array(nine.prefix(8))).count == 8)
    }
}

/// When a reminder rings, in a zone with daylight saving time.
@Suite("reminder instants")
struct ReminderInstantTests {
    let newYork = DayBoundary(timeZone: TimeZone(identifier: "America/New_York")!)

    func at(_ time: String, on day: String, _ boundary: DayBoundary? = nil) throws -> String {
        let instant = (boundary ?? newYork).instant(of: try ReminderTime(parsing: time), on: try LocalDay(iso: day))
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: instant)
    }

    @Test("a plain day, a spring-forward gap (02:30 rings at 03:00), a fall-back hour (01:30 rings the first time), a late day start")
    func instants() throws {
        #expect(try at("21:00", on: "2026-12-06") == "2026-12-07T02:00:00Z")
        #expect(try at("02:30", on: "2026-03-08") == "2026-03-08T07:00:00Z")
        #expect(try at("03:00", on: "2026-03-08") == "2026-03-08T07:00:00Z")
        #expect(try at("01:30", on: "2026-11-01") == "2026-11-01T05:30:00Z")
        #expect(try at("02:30", on: "2026-11-01") == "2026-11-01T07:30:00Z")
        let late = DayBoundary(timeZone: TimeZone(identifier: "Asia/Seoul")!, dayStart: try DayStart(parsing: "04:00"))
        #expect(try at("01:00", on: "2026-12-06", late) == "2026-12-06T16:00:00Z", "01:00 of the day starting at 04:00 is the next date's")
        #expect(try at("21:00", on: "2026-12-06", late) == "2026-12-06T12:00:00Z")
    }
}
