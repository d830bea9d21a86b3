import Foundation

/// Time zones as users write them: an IANA name (`Asia/Seoul`), `UTC`/`Z`, or a fixed offset
/// `±HH:MM` up to ±14:00.
public enum TimeZoneText {
    /// The zone `text` names, or nil.
    public static func parse(_ text: String) -> TimeZone? {
        let bytes = Array(text.utf8)
        if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") {
            guard bytes.count == 6, bytes[3] == UInt8(ascii: ":"),
                  let (hours, minutes) = bytes.withUnsafeBufferPointer({ field -> (Int, Int)? in
                      guard let hours = ASCIIDigits.value(field, 1..<3), let minutes = ASCIIDigits.value(field, 4..<6) else { return nil }
                      return (hours, minutes)
                  }),
                  hours * 60 + minutes <= 14 * 60, minutes < 60
            else { return nil }
            let sign = bytes[0] == UInt8(ascii: "-") ? -1 : 1
            return TimeZone(secondsFromGMT: sign * (hours * 3600 + minutes * 60))
        }
        if text == "UTC" || text == "Z" { return TimeZone(secondsFromGMT: 0) }
        return TimeZone(identifier: text)
    }
}
