import Foundation
import StackDay

/// A day from a literal the test knows is valid.
func day(_ text: String) -> LocalDay {
    do { return try LocalDay(iso: text) } catch { preconditionFailure("bad literal \(text)") }
}

/// An instant from an ISO 8601 literal with an offset.
func instant(_ text: String) -> Date {
    guard let date = try? Date(text, strategy: .iso8601) else { preconditionFailure("bad instant \(text)") }
    return date
}

let utc = TimeZone(identifier: "UTC")!
let seoul = TimeZone(secondsFromGMT: 9 * 3600)!

/// A context over a fresh in-memory store, with the clock at `now` in `timeZone`.
func makeContext(now: String = "2026-10-11T20:00:00+09:00", timeZone: TimeZone = seoul, dayStart: DayStart = .midnight) -> HabitContext {
    HabitContext(store: InMemoryHabitStore(), clock: FixedClock(instant(now)), boundary: DayBoundary(timeZone: timeZone, dayStart: dayStart))
}
