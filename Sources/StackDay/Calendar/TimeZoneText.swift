import Foundation

/// Time zones as users write them: an IANA name (`Asia/Seoul`), `UTC`/`Z`, or a fixed offset
/// `±HH:MM` up to ±14:00.
public enum TimeZoneText {
    /// The zone `text` names, or nil.
    public static func parse(_ text: String) -> TimeZone? {
        let bytes = Array(text.utf8)
        if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") {
            guard bytes.count == 6, bytes[3] == UInt8(ascii: ":"),
                  bytes[1...2].allSatisfy({ (0x30...0x39).contains($0) }), bytes[4...5].allSatisfy({ (0x30...0x39).contains($0) })
            else { return nil }
            let hours = Int(bytes[1] - 0x30) * 10 + Int(bytes[2] - 0x30)
            let minutes = Int(bytes[4] - 0x30) * 10 + Int(bytes[5] - 0x30)
            guard hours * 60 + minutes <= 14 * 60, minutes < 60 else { return nil }
            let sign = bytes[0] == UInt8(ascii: "-") ? -1 : 1
            return TimeZone(secondsFromGMT: sign * (hours * 3600 + minutes * 60))
        }
        if text == "UTC" || text == "Z" { return TimeZone(secondsFromGMT: 0) }
        return TimeZone(identifier: text)
    }
}
