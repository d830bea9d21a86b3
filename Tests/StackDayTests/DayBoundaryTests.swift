import Foundation
import Testing
import StackDay

@Suite("Instant-to-day boundary")
struct DayBoundaryTests {
    @Test("the same instant is a different day in Seoul and in UTC", arguments: [
        ("2026-10-05T22:30:00Z", "2026-10-06", "2026-10-05"),
        ("2026-10-06T15:00:00Z", "2026-10-07", "2026-10-06"),
        ("2026-10-06T14:59:59Z", "2026-10-06", "2026-10-06"),
    ])
    func seoulAndUTC(text: String, seoulDay: String, utcDay: String) {
        #expect(LocalDay(date: instant(text), timeZone: seoul) == day(seoulDay))
        #expect(LocalDay(date: instant(text), timeZone: utc) == day(utcDay))
    }

    @Test("DST days use the offset in force at the instant", arguments: [
        // New York springs forward 2026-03-08 02:00 EST → 03:00 EDT, falls back 2026-11-01 02:00 EDT → 01:00 EST.
        ("America/New_York", "2026-03-08T04:59:59Z", "2026-03-07"),
        ("America/New_York", "2026-03-08T05:00:00Z", "2026-03-08"),
        ("America/New_York", "2026-03-09T03:59:59Z", "2026-03-08"),
        ("America/New_York", "2026-03-09T04:00:00Z", "2026-03-09"),
        ("America/New_York", "2026-11-01T05:30:00Z", "2026-11-01"),
        ("America/New_York", "2026-11-02T04:59:59Z", "2026-11-01"),
        ("America/New_York", "2026-11-02T05:00:00Z", "2026-11-02"),
        // Berlin: 2026-03-29 02:00 CET → 03:00 CEST, 2026-10-25 03:00 CEST → 02:00 CET.
        ("Europe/Berlin", "2026-03-28T22:59:59Z", "2026-03-28"),
        ("Europe/Berlin", "2026-03-28T23:00:00Z", "2026-03-29"),
        ("Europe/Berlin", "2026-03-29T21:59:59Z", "2026-03-29"),
        ("Europe/Berlin", "2026-03-29T22:00:00Z", "2026-03-30"),
        ("Europe/Berlin", "2026-10-25T22:59:59Z", "2026-10-25"),
        ("Europe/Berlin", "2026-10-25T23:00:00Z", "2026-10-26"),
    ])
    func daylightSaving(zone: String, text: String, expected: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        #expect(LocalDay(date: instant(text), timeZone: timeZone) == day(expected))
    }

    @Test("first instant of DST days", arguments: [
        ("America/New_York", "2026-03-08", "2026-03-08T05:00:00Z", "2026-03-09T04:00:00Z"),
        ("America/New_York", "2026-11-01", "2026-11-01T04:00:00Z", "2026-11-02T05:00:00Z"),
        ("Europe/Berlin", "2026-03-29", "2026-03-28T23:00:00Z", "2026-03-29T22:00:00Z"),
        ("Europe/Berlin", "2026-10-25", "2026-10-24T22:00:00Z", "2026-10-25T23:00:00Z"),
    ])
    func firstInstant(zone: String, text: String, start: String, nextStart: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        let value = day(text)
        #expect(value.firstInstant(in: timeZone) == instant(start))
        #expect(value.adding(days: 1).firstInstant(in: timeZone) == instant(nextStart))
        // A 23- or 25-hour day still maps back to itself at both ends.
        #expect(LocalDay(date: instant(start), timeZone: timeZone) == value)
        #expect(LocalDay(date: instant(nextStart).addingTimeInterval(-1), timeZone: timeZone) == value)
    }

    @Test("a day start after midnight moves early hours to the previous day", arguments: [
        ("2026-10-06T01:30:00+09:00", "03:00", "2026-10-05"),
        ("2026-10-06T03:00:00+09:00", "03:00", "2026-10-06"),
        ("2026-10-06T02:59:59+09:00", "03:00", "2026-10-05"),
        ("2026-10-06T01:30:00+09:00", "00:00", "2026-10-06"),
    ])
    func dayStart(text: String, start: String, expected: String) throws {
        let boundary = DayBoundary(timeZone: seoul, dayStart: try DayStart(parsing: start))
        #expect(boundary.day(for: instant(text)) == day(expected))
        #expect(boundary.firstInstant(of: day(expected)) <= instant(text))
    }

    @Test("fixed offsets need no time-zone database", arguments: [(9 * 3600, "2026-10-11"), (-5 * 3600, "2026-10-10"), (0, "2026-10-10")])
    func fixedOffsets(seconds: Int, expected: String) throws {
        let zone = try #require(TimeZone(secondsFromGMT: seconds))
        #expect(LocalDay(date: instant("2026-10-10T20:00:00Z"), timeZone: zone) == day(expected))
    }

    @Test("malformed day starts throw", arguments: ["3:00", "24:00", "03:60", "0300", "", "ab:cd"])
    func malformedDayStart(text: String) {
        #expect(throws: DayStartError.self) { try DayStart(parsing: text) }
    }

    @Test func clocks() {
        let fixed = FixedClock(instant("2026-10-11T20:00:00+09:00"))
        #expect(fixed.now == instant("2026-10-11T11:00:00Z"))
        let before = Date()
        let now = SystemClock().now
        #expect(now >= before && now <= Date())
    }

    @Test("midnightUTC is the day's first instant in UTC, before and after 1970", arguments: ["1969-12-31", "1970-01-01", "2000-02-29", "2026-10-11", "0001-01-01", "9999-12-31"])
    func midnightUTC(text: String) throws {
        let day = try LocalDay(iso: text)
        // Foundation's Gregorian calendar turns Julian before October 1582; LocalDay (and so
        // midnightUTC) stays proleptic Gregorian, and both agree from then on.
        if day.year > 1582 { #expect(day.midnightUTC == day.firstInstant(in: TimeZone(identifier: "UTC")!)) }
        #expect(LocalDay(date: day.midnightUTC, timeZone: TimeZone(identifier: "UTC")!) == day)
    }
}
