/// Checks that bytes are UTF-8 a chunk at a time (a character may straddle two chunks), with
/// the well-formed sequences of the Unicode Standard's Table 3-7: no overlong forms, no
/// surrogates, nothing past U+10FFFF.
struct UTF8Check {
    /// Continuation bytes still expected, and the range the next one must fall in.
    private var needed = 0
    private var low: UInt8 = 0x80, high: UInt8 = 0xBF
    /// Bytes checked so far.
    private(set) var count = 0

    /// The offset (from the first byte ever checked) of the first byte that breaks UTF-8, or nil.
    mutating func check(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        let total = bytes.count
        while index < total {
            let byte = bytes[index]
            if needed > 0 {
                guard byte >= low && byte <= high else { return count + index }
                needed -= 1
                (low, high) = (0x80, 0xBF)
                index += 1
                continue
            }
            if byte < 0x80 {
                index += 1
                continue
            }
            switch byte {
            case 0xC2...0xDF: needed = 1
            case 0xE0: (needed, low) = (2, 0xA0)
            case 0xE1...0xEC, 0xEE...0xEF: needed = 2
            case 0xED: (needed, high) = (2, 0x9F)
            case 0xF0: (needed, low) = (3, 0x90)
            case 0xF1...0xF3: needed = 3
            case 0xF4: (needed, high) = (3, 0x8F)
            default: return count + index
            }
            index += 1
        }
        count += total
        return nil
    }

    /// At the end of the input: the offset of a character cut off by it, or nil.
    func finish() -> Int? {
        needed > 0 ? count : nil
    }
}
