import Foundation

/// The runner pipe's framing: a message is a 4-byte big-endian length and that many bytes; the
/// values inside (integers little-endian, doubles as their bits, strings and arrays after their
/// count; arrays of numbers as their memory, in one copy: both ends are this binary on this
/// machine) are written under their fields' tags by `RunnerMessage`.
struct RunnerFrame {
    private(set) var bytes: [UInt8] = []

    /// The most bytes one message may have (a year of days and their numbers is a few hundred KiB).
    static let maximumBytes = 64 << 20

    init() { bytes.reserveCapacity(256) }

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func int(_ value: Int) {
        withUnsafeBytes(of: Int64(value).littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func double(_ value: Double) { int(Int(bitPattern: UInt(value.bitPattern))) }

    mutating func bool(_ value: Bool) { byte(value ? 1 : 0) }

    mutating func string(_ value: String) {
        int(value.utf8.count)
        bytes.append(contentsOf: value.utf8)
    }

    mutating func optionalString(_ value: String?) {
        bool(value != nil)
        if let value { string(value) }
    }

    mutating func raw(_ values: [UInt8]) {
        int(values.count)
        bytes.append(contentsOf: values)
    }

    /// An array of plain numbers: its count, then its memory.
    mutating func numbers<T: BitwiseCopyable>(_ values: [T]) {
        int(values.count)
        values.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }

    mutating func doubles(_ values: [Double]) { numbers(values) }

    mutating func ints(_ values: [Int]) { numbers(values) }

    /// The message as written to the pipe: its length, then its bytes.
    var message: [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count + 4)
        let count = UInt32(bytes.count)
        out += [UInt8(count >> 24), UInt8((count >> 16) & 0xFF), UInt8((count >> 8) & 0xFF), UInt8(count & 0xFF)]
        out += bytes
        return out
    }
}

/// Reads the values `RunnerFrame` wrote; throws `RunnerFrameError` when the message ends early.
struct RunnerFrameReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    private mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, count <= bytes.count - offset else { throw RunnerFrameError() }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    mutating func byte() throws -> UInt8 { try take(1).first ?? 0 }

    /// Whether every byte has been read.
    var isAtEnd: Bool { offset == bytes.count }

    /// A count written before a list, at most `limit`.
    mutating func count(limit: Int) throws -> Range<Int> {
        let count = try int()
        guard (0...limit).contains(count) else { throw RunnerFrameError(reason: "a list of \(count) items, more than \(limit)") }
        return 0..<count
    }

    mutating func int() throws -> Int {
        let value = try take(8).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        return Int(Int64(bitPattern: UInt64(littleEndian: value)))
    }

    mutating func double() throws -> Double { Double(bitPattern: UInt64(UInt(bitPattern: try int()))) }

    mutating func bool() throws -> Bool { try byte() != 0 }

    mutating func string() throws -> String { String(decoding: try take(try int()), as: UTF8.self) }

    mutating func optionalString() throws -> String? { try bool() ? try string() : nil }

    mutating func raw() throws -> [UInt8] { Array(try take(try int())) }

    /// An array `numbers(_:)` wrote.
    mutating func numbers<T: BitwiseCopyable>(of type: T.Type = T.self) throws -> [T] {
        let count = try int()
        let size = MemoryLayout<T>.stride
        guard count >= 0, count <= (bytes.count - offset) / size else { throw RunnerFrameError() }
        let slice = try take(count * size)
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            slice.withUnsafeBytes { UnsafeMutableRawBufferPointer(buffer).copyMemory(from: $0) }
            initialized = count
        }
    }

    mutating func doubles() throws -> [Double] { try numbers() }

    mutating func ints() throws -> [Int] { try numbers() }
}

/// A runner message that could not be read: cut short, of another version, or with a field
/// unknown, repeated or missing (`reason` names it).
struct RunnerFrameError: Error, CustomStringConvertible {
    var reason = "a message cut short"
    var description: String { "a policy runner's message could not be read: \(reason)" }
}
