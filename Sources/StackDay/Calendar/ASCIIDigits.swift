/// Fixed-width decimal fields in ASCII text, as dates, times and offsets are written.
public enum ASCIIDigits {
    /// The number the bytes in `range` spell, or nil when one of them is not a digit 0–9.
    public static func value(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var value = 0
        for index in range {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
