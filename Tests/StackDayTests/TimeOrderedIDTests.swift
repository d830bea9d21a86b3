import Foundation
import Testing
import StackDay

/// Version 7 ids (RFC 9562 §5.7): the time in the first 48 bits, version and variant in place,
/// and an order that follows the time they were made for.
@Suite("time-ordered ids")
struct TimeOrderedIDTests {
    @Test("the layout: milliseconds of Unix time, version 7, variant 10, the rest random")
    func layout() {
        let instant = Date(timeIntervalSince1970: 1_764_900_000.123)
        let id = TimeOrderedID.make(at: instant)
        let bytes = withUnsafeBytes(of: id.uuid) { Array($0) }
        let milliseconds = bytes[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(milliseconds == 1_764_900_000_123)
        #expect(bytes[6] >> 4 == 7 && bytes[8] >> 6 == 0b10)
        #expect(id.uuidString.dropFirst(14).first == "7")
        #expect(TimeOrderedID.make(at: instant) != id)
    }

    @Test("ids made for later instants sort after earlier ones, as text and as bytes; records and skips made without an id take one")
    func order() throws {
        let ids = (0..<200).map { TimeOrderedID.make(at: Date(timeIntervalSince1970: 1_700_000_000 + Double($0) * 0.002)) }
        #expect(ids.map(\.uuidString) == ids.map(\.uuidString).sorted())
        let day = try LocalDay(iso: "2026-12-05")
        let record = try Completion(habitID: UUID(), completedOn: day, recordedAt: Date(timeIntervalSince1970: 1_764_900_000))
        let skip = Skip(habitID: UUID(), day: day, recordedAt: Date(timeIntervalSince1970: 1_764_900_001))
        #expect(record.id.uuidString.dropFirst(14).first == "7" && skip.id.uuidString.dropFirst(14).first == "7")
        #expect(record.id.uuidString < skip.id.uuidString)
    }

    @Test("ids made one after another sort in the order they were made, whatever day their records are of")
    func madeInOrder() throws {
        let ids = (0..<20_000).map { _ in TimeOrderedID.next() }
        #expect(Set(ids).count == ids.count)
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $0.uuidString < $1.uuidString })
        #expect(ids.allSatisfy { $0.uuidString.dropFirst(14).first == "7" })
        // A history imported newest day first still gets ids in the order it was written.
        let days = try (0..<50).map { try LocalDay(iso: "2026-12-05").adding(days: -$0) }
        let records = try days.map { try Completion(habitID: UUID(), completedOn: $0, recordedAt: $0.midnightUTC) }
        #expect(records.map(\.id.uuidString) == records.map(\.id.uuidString).sorted())
    }
}
