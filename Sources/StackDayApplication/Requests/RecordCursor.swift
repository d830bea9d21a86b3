import Foundation
import StackDay

/// Where a page of records ends: the last record's day, instant and id, as an opaque text
/// (`<day>_<seconds since 1970, exactly>_<id>`, base64url).
struct RecordCursor {
    let day: LocalDay
    let recordedAt: Date
    let id: String

    init(day: LocalDay, recordedAt: Date, id: String) {
        self.day = day
        self.recordedAt = recordedAt
        self.id = id
    }

    init?(_ text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard text.count <= 200, let data = Data(base64Encoded: base64), let plain = String(data: data, encoding: .utf8) else { return nil }
        let parts = plain.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 3, let day = try? LocalDay(iso: String(parts[0])), let bits = UInt64(parts[1], radix: 16), UUID(uuidString: String(parts[2])) != nil
        else { return nil }
        self.init(day: day, recordedAt: Date(timeIntervalSince1970: Double(bitPattern: bits)), id: String(parts[2]))
    }

    var text: String {
        let plain = "\(day.iso)|\(String(recordedAt.timeIntervalSince1970.bitPattern, radix: 16))|\(id)"
        return Data(plain.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
