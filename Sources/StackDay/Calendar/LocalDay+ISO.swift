extension LocalDay: CustomStringConvertible, LosslessStringConvertible, Codable {
    /// Parses `YYYY-MM-DD` exactly (four-digit year, two-digit month and day).
    public init(iso text: String) throws(LocalDayError) {
        var utf8 = text
        let parts = utf8.withUTF8 { LocalDay.parts($0) }
        guard let (year, month, day) = parts else { throw .malformed(text) }
        try self.init(year: year, month: month, day: day)
    }

    /// Parses `YYYY-MM-DD` from UTF-8 bytes; nil when malformed or not a real date.
    public init?(isoBytes bytes: UnsafeBufferPointer<UInt8>) {
        guard let (year, month, day) = LocalDay.parts(bytes), let value = try? LocalDay(year: year, month: month, day: day) else { return nil }
        self = value
    }

    private static func parts(_ bytes: UnsafeBufferPointer<UInt8>) -> (Int, Int, Int)? {
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? { ASCIIDigits.value(bytes, range) }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        return (year, month, day)
    }

    public init?(_ description: String) {
        guard let day = try? LocalDay(iso: description) else { return nil }
        self = day
    }

    /// `YYYY-MM-DD`.
    public var iso: String {
        let parts = components
        guard (0...9999).contains(parts.year) else { return LocalDay.format(year: parts.year, month: parts.month, day: parts.day) }
        return String(unsafeUninitializedCapacity: 10) { out in
            writeISO(into: out)
            return 10
        }
    }

    public var description: String { iso }

    /// Writes the 10 bytes of `YYYY-MM-DD` into `out` (which must hold at least 10; years 0…9999).
    public func writeISO(into out: UnsafeMutableBufferPointer<UInt8>) {
        let (year, month, day) = components
        let zero = UInt8(ascii: "0")
        out[0] = zero + UInt8(year / 1000 % 10); out[1] = zero + UInt8(year / 100 % 10)
        out[2] = zero + UInt8(year / 10 % 10); out[3] = zero + UInt8(year % 10)
        out[4] = UInt8(ascii: "-"); out[5] = zero + UInt8(month / 10); out[6] = zero + UInt8(month % 10)
        out[7] = UInt8(ascii: "-"); out[8] = zero + UInt8(day / 10); out[9] = zero + UInt8(day % 10)
    }

    static func format(year: Int, month: Int, day: Int) -> String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(iso: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso)
    }
}
