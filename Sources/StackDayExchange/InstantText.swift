import Foundation
import StackDay

/// Instants in exports: ISO 8601 in UTC with milliseconds, e.g. `2026-10-11T13:00:00.000Z`.
public enum InstantText {
    public static func format(_ date: Date) -> String {
        // Whole milliseconds, so that export → import → export is stable.
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let fraction = Int(milliseconds - seconds * 1000)
        let secondsPerDay: Int64 = 24 * 60 * 60
        let dayNumber = seconds >= 0 ? seconds / secondsPerDay : (seconds - secondsPerDay + 1) / secondsPerDay
        let within = Int(seconds - dayNumber * secondsPerDay)
        let day = (try? LocalDay(ordinal: Int(dayNumber)))?.iso ?? "0001-01-01"
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis = fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)"
        return "\(day)T\(two(within / 3600)):\(two(within / 60 % 60)):\(two(within % 60)).\(millis)Z"
    }

    /// An instant as a person reads it in `zone`: `2026-10-11 20:00 +09:00` (to the minute, with
    /// the zone's offset at that instant), what tables print.
    public static func local(_ date: Date, in zone: TimeZone) -> String {
        let offset = zone.secondsFromGMT(for: date)
        let shifted = format(date.addingTimeInterval(TimeInterval(offset)))
        let magnitude = abs(offset) / 60
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return shifted.prefix(10) + " " + shifted.dropFirst(11).prefix(5) + " \(offset < 0 ? "-" : "+")\(two(magnitude / 60)):\(two(magnitude % 60))"
    }

    /// Parses an RFC 3339 instant strictly: `YYYY-MM-DDTHH:MM:SS`, optional fraction (kept to
    /// milliseconds), then `Z` or `±HH:MM`. Every field must be in range and nothing may follow.
    public static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        let count = bytes.count
        guard count >= 20, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let day = LocalDay(isoBytes: UnsafeBufferPointer(rebasing: bytes[0..<10]))
        else { return nil }
        func number(_ range: Range<Int>) -> Int? { ASCIIDigits.value(bytes, range) }
        guard let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              hour < 24, minute < 60, second < 60
        else { return nil }
        var index = 19
        var millis = 0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let digits = index
            while index < count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            guard index > digits, index - digits <= 9 else { return nil }
            // Milliseconds, rounded half up from the digits after them.
            var scaled = 0
            for position in digits..<(digits + 4) {
                scaled = scaled * 10 + (position < index ? Int(bytes[position] - UInt8(ascii: "0")) : 0)
            }
            millis = (scaled + 5) / 10
        }
        guard index < count else { return nil }
        var offsetMinutes = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == count else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard index + 6 == count, bytes[index + 3] == UInt8(ascii: ":"),
                  let hours = number((index + 1)..<(index + 3)), let minutes = number((index + 4)..<(index + 6)),
                  hours < 24, minutes < 60
            else { return nil }
            offsetMinutes = (bytes[index] == UInt8(ascii: "-") ? -1 : 1) * (hours * 60 + minutes)
        default:
            return nil
        }
        let secondsPerDay: Int64 = 24 * 60 * 60
        let seconds = Int64(day.ordinal) * secondsPerDay + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetMinutes * 60)
        return Date(timeIntervalSince1970: Double(seconds * 1000 + Int64(millis)) / 1000)
    }
}
