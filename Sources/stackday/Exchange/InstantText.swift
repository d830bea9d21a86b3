import Foundation
import StackDay

/// Instants in exports: ISO 8601 in UTC with milliseconds, e.g. `2026-10-11T13:00:00.000Z`.
enum InstantText {
    static func format(_ date: Date) -> String {
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

    /// Reads the export layout quickly; other ISO 8601 forms go through Foundation.
    static func parse(_ text: String) -> Date? {
        var text = text
        if let date = text.withUTF8({ fast($0) }) { return date }
        guard let date = CLIEnvironment.parseInstant(text) else { return nil }
        return Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
    }

    /// The export layout from bytes; nil for anything else.
    static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        fast(bytes)
    }

    /// `YYYY-MM-DDTHH:MM:SS.sssZ` or `YYYY-MM-DDTHH:MM:SSZ`.
    private static func fast(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard bytes.count == 24 || bytes.count == 20, bytes[10] == UInt8(ascii: "T"), bytes[bytes.count - 1] == UInt8(ascii: "Z"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let day = LocalDay(isoBytes: UnsafeBufferPointer(rebasing: bytes[0..<10]))
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19), hour < 24, minute < 60, second < 61 else { return nil }
        var millis = 0
        if bytes.count == 24 {
            guard bytes[19] == UInt8(ascii: "."), let value = number(20..<23) else { return nil }
            millis = value
        }
        let secondsPerDay: Int64 = 24 * 60 * 60
        let seconds = Int64(day.ordinal) * secondsPerDay + Int64(hour * 3600 + minute * 60 + second)
        return Date(timeIntervalSince1970: Double(seconds * 1000 + Int64(millis)) / 1000)
    }
}
