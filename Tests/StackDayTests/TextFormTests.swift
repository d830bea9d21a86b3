import Foundation
import Testing
import StackDay
import StackDayTestSupport

/// The text forms a sync page is read and written through: JSON numbers, UUIDs, days and the
/// text a change's fingerprint hashes. Each fast path is checked against the general one it
/// stands in for.
@Suite("text forms")
struct TextFormTests {
    /// Numbers of up to 15 digits without an exponent are read without text; every other one as
    /// before. Both must give the double `Double(String)` gives, bit for bit.
    @Test("JSON numbers read to the same double as Swift's own parser, short or long, with or without a fraction")
    func numbers() throws {
        var generator = SystemRandomNumberGenerator()
        var literals = ["0", "-0", "0.0", "-0.0", "1", "-1", "0.1", "0.3", "1476230400", "1476230400.123", "999999999999999",
                        "9999999999999999", "0.000000000000001", "123456789.012345", "1e3", "2.5E-3", "-7.25e+2", "1234567890123456789",
                        "0.1000000000000000055511151231257827", "9007199254740993"]
        for _ in 0..<2000 {
            let whole = String(UInt64.random(in: 0...999_999_999, using: &generator))
            let fraction = String(UInt64.random(in: 0...999_999_999, using: &generator))
            let cut = Int.random(in: 1...fraction.count, using: &generator)
            literals.append((Bool.random(using: &generator) ? "-" : "") + whole + "." + fraction.prefix(cut))
        }
        for literal in literals {
            let read = try JSONValue(parsing: "[\(literal)]").arrayValue?.first?.numberValue
            let expected = try #require(Double(literal))
            #expect(read?.bitPattern == expected.bitPattern, "\(literal)")
        }
        for bad in ["01", "1.", ".5", "-", "1e", "+1", "1.2.3", "--1"] {
            #expect(throws: JSONValueError.self, "\(bad)") { try JSONValue(parsing: bad) }
        }
    }

    @Test("a UUID is canonical only as its upper-case, hyphenated text; parsing takes either case")
    func uuids() {
        for _ in 0..<200 {
            let id = UUID()
            let text = UUIDText.format(id)
            #expect(UUIDText.isCanonical(text))
            #expect(UUIDText.parse(text) == id && UUIDText.parse(text.lowercased()) == id)
            #expect(!UUIDText.isCanonical(text.lowercased()) || text == text.lowercased())
        }
        for bad in ["", "E621E1F8C36C495A93FC0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "E621E1F8-C36C-495A-93FC-0C247A3E6E5FF",
                    "E621E1F8-C36C-495A-93FC-0C247A3E6E5G", "E621E1F8-C36C-495A-93FC_0C247A3E6E5F", "É621E1F8-C36C-495A-93FC-0C247A3E6E5"] {
            #expect(!UUIDText.isCanonical(bad), "\(bad)")
        }
        #expect(UUIDText.parse("E621E1F8-C36C-495A-93FC-0C247A3E6E5G") == nil)
    }

    @Test("a day's ISO text is zero-padded across the whole range")
    func days() throws {
        for text in ["0001-01-01", "0042-03-09", "0999-12-31", "1000-01-01", "2026-12-07", "9999-12-31"] {
            #expect(try LocalDay(iso: text).iso == text)
        }
        var day = LocalDay.earliest
        while day < LocalDay.latest {
            let (year, month, dayOfMonth) = day.components
            #expect(day.iso == String(format: "%04d-%02d-%02d", year, month, dayOfMonth))
            day = day.adding(days: 997)
        }
    }

    /// A server keeps fingerprints across versions: the hash must stay FNV-1a of "KIND/KEY/HLC"
    /// however it is fed.
    @Test("a change's fingerprint hashes the text of its kind, key and time, signs and extremes included")
    func fingerprints() throws {
        var generator = SeededGenerator(seed: 58)
        let times: [Int64] = [0, 1, 9, 10, -1, -10, .max, .min, 117_747_202_061_565_952] + (0..<500).map { _ in Int64.random(in: .min ... .max, using: &generator) }
        for (index, hlc) in times.enumerated() {
            let key = UUID().uuidString
            let change = SyncChange.deletion(index % 2 == 0 ? .completion : .skip, key: key, stamp: SyncStamp(hlc: hlc, device: "d"))
            var text = FNV1a()
            text.combine("\(change.kind.rawValue)/\(key)/\(hlc)".utf8)
            #expect(change.fingerprint == Int64(bitPattern: text.value), "hlc \(hlc)")
        }
    }
}
