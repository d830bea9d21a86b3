import Foundation
import Testing
@testable import StackDay

@Suite("LocalDay")
struct LocalDayTests {
    @Test("leap years", arguments: [(1900, false), (2000, true), (2023, false), (2024, true), (2100, false), (2400, true), (4, true), (1, false)])
    func leapYears(year: Int, leap: Bool) throws {
        let february = try LocalDay(year: year, month: 2, day: 1)
        #expect(february.daysInMonth == (leap ? 29 : 28))
        #expect(february.isInLeapYear == leap)
        #expect(((try? LocalDay(year: year, month: 2, day: 29)) != nil) == leap)
    }

    @Test("invalid dates throw", arguments: [
        (2026, 2, 30), (2026, 13, 1), (2026, 0, 10), (2026, 4, 31), (2023, 2, 29), (2100, 2, 29), (0, 1, 1), (10000, 1, 1), (2026, 1, 0),
    ])
    func invalidDates(year: Int, month: Int, dayOfMonth: Int) {
        #expect(throws: LocalDayError.self) { try LocalDay(year: year, month: month, day: dayOfMonth) }
    }

    @Test("month lengths", arguments: [(1, 31), (2, 28), (3, 31), (4, 30), (5, 31), (6, 30), (7, 31), (8, 31), (9, 30), (10, 31), (11, 30), (12, 31)])
    func monthLengths(month: Int, length: Int) throws {
        #expect(try LocalDay(year: 2026, month: month, day: 1).daysInMonth == length)
    }

    @Test("moving across month and year ends", arguments: [
        ("2026-01-31", 1, "2026-02-01"), ("2024-02-28", 1, "2024-02-29"), ("2023-02-28", 1, "2023-03-01"),
        ("2026-12-31", 1, "2027-01-01"), ("2027-01-01", -1, "2026-12-31"), ("2024-03-01", -1, "2024-02-29"),
        ("2026-10-11", -10, "2026-10-01"), ("2000-01-01", 366, "2001-01-01"), ("1970-01-01", -1, "1969-12-31"),
    ])
    func adding(start: String, days: Int, expected: String) {
        #expect(day(start).adding(days: days) == day(expected))
        #expect(day(start).days(to: day(expected)) == days)
    }

    @Test("weekday, year day and ordinal", arguments: [
        ("1970-01-01", 4, 1, 0), ("2026-10-05", 1, 278, 20_731), ("2026-10-11", 7, 284, 20_737),
        ("2024-12-31", 2, 366, 20_088), ("2000-02-29", 2, 60, 11_016), ("0001-01-01", 1, 1, -719_162),
    ])
    func fields(text: String, weekday: Int, yearDay: Int, ordinal: Int) {
        let value = day(text)
        #expect(value.weekday == weekday)
        #expect(value.yearDay == yearDay)
        #expect(value.ordinal == ordinal)
    }

    @Test("ISO text round trips and malformed text throws", arguments: ["2026-1-05", "26-10-05", "2026/10/05", "2026-10-05T00:00", "", "abcd-ef-gh", "2026-02-30"])
    func malformed(text: String) {
        #expect(throws: LocalDayError.self) { try LocalDay(iso: text) }
    }

    @Test func codableAsISOText() throws {
        let data = try JSONEncoder().encode([day("2026-10-05")])
        #expect(String(decoding: data, as: UTF8.self) == #"["2026-10-05"]"#)
        #expect(try JSONDecoder().decode([LocalDay].self, from: data) == [day("2026-10-05")])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([LocalDay].self, from: Data(#"["2026-02-30"]"#.utf8)) }
    }

    @Test func supportedRangeEnds() throws {
        #expect(LocalDay.earliest.iso == "0001-01-01")
        #expect(LocalDay.latest.iso == "9999-12-31")
        #expect(throws: LocalDayError.self) { try LocalDay(ordinal: LocalDay.latest.ordinal + 1) }
    }

    @Test("every day of 400 years agrees with Foundation's Gregorian calendar")
    func roundTripAgainstFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        let first = try LocalDay(year: 1900, month: 1, day: 1)
        var date = try #require(calendar.date(from: DateComponents(year: 1900, month: 1, day: 1)))
        for offset in 0..<146_097 {
            let value = first.adding(days: offset)
            let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: date)
            let (year, month, dayOfMonth) = value.components
            guard year == parts.year, month == parts.month, dayOfMonth == parts.day,
                  value.weekday == ((parts.weekday! + 5) % 7) + 1,
                  try LocalDay(year: year, month: month, day: dayOfMonth) == value,
                  try LocalDay(iso: value.iso) == value
            else {
                Issue.record("mismatch at \(value.iso): Foundation says \(parts)")
                return
            }
            date = calendar.date(byAdding: .day, value: 1, to: date)!
        }
    }
}
