/// A QR code of some text (byte mode, error correction level M, versions 1 to 10: up to 213
/// bytes), as a square of dark and light modules, and as SVG.
///
/// Built as ISO/IEC 18004 lays it out: the finder, timing and alignment patterns, the data and
/// its Reed–Solomon error correction interleaved by block, placed in the two-column zigzag, the
/// mask of the eight with the lowest penalty score, and the BCH-coded format and version bits.
struct QRCode {
    /// The version: 1 to 10, the smallest that holds the text.
    let version: Int
    /// Rows of modules, `true` for dark; `size` × `size`.
    let modules: [[Bool]]
    var size: Int { modules.count }

    /// Level M's layout per version 1–10 (ISO/IEC 18004 table 9): all codewords, error correction
    /// codewords per block, and blocks. Data codewords are the rest, split as evenly as possible,
    /// the shorter blocks first.
    private static let layout: [(total: Int, correction: Int, blocks: Int)] = [
        (26, 10, 1), (44, 16, 1), (70, 26, 1), (100, 18, 2), (134, 24, 2),
        (172, 16, 4), (196, 18, 4), (242, 22, 4), (292, 22, 5), (346, 26, 5),
    ]

    /// The centres of the alignment patterns per version (ISO/IEC 18004 annex E), rows and columns alike.
    static let alignment: [[Int]] = [
        [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50],
    ]

    /// Nil when the text does not fit in version 10.
    init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard let version = (1...10).first(where: { Self.dataCapacity($0) * 8 >= 4 + Self.countBits($0) + bytes.count * 8 }) else { return nil }
        self.version = version
        let codewords = Self.interleaved(Self.dataCodewords(bytes, version: version), version: version)
        var grid = Grid(version: version)
        grid.drawFunctionPatterns()
        grid.place(codewords)
        var best: (grid: Grid, penalty: Int)?
        for mask in 0..<8 {
            var candidate = grid
            candidate.apply(mask: mask)
            candidate.drawFormat(mask: mask)
            let penalty = candidate.penalty()
            if best.map({ penalty < $0.penalty }) ?? true { best = (candidate, penalty) }
        }
        modules = best!.grid.dark
    }

    private static func dataCapacity(_ version: Int) -> Int {
        let layout = layout[version - 1]
        return layout.total - layout.correction * layout.blocks
    }

    private static func countBits(_ version: Int) -> Int { version < 10 ? 8 : 16 }

    /// Mode, count, the bytes, a terminator, and the pad codewords 0xEC 0x11 to fill the version.
    private static func dataCodewords(_ bytes: [UInt8], version: Int) -> [UInt8] {
        var bits: [Bool] = []
        func append(_ value: Int, _ count: Int) {
            for shift in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> shift) & 1 == 1) }
        }
        append(0b0100, 4)
        append(bytes.count, countBits(version))
        for byte in bytes { append(Int(byte), 8) }
        let capacity = dataCapacity(version) * 8
        append(0, min(4, capacity - bits.count))
        while bits.count % 8 != 0 { bits.append(false) }
        var words = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
        var pad: UInt8 = 0xEC
        while words.count < capacity / 8 {
            words.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        return words
    }

    /// The data split into blocks, each with its error correction, read column by column.
    private static func interleaved(_ data: [UInt8], version: Int) -> [UInt8] {
        let layout = layout[version - 1]
        let short = data.count / layout.blocks
        let longBlocks = data.count % layout.blocks
        var blocks: [[UInt8]] = []
        var start = 0
        for index in 0..<layout.blocks {
            let length = short + (index >= layout.blocks - longBlocks ? 1 : 0)
            blocks.append(Array(data[start..<start + length]))
            start += length
        }
        let generator = ReedSolomon.generator(degree: layout.correction)
        let corrections = blocks.map { ReedSolomon.remainder($0, generator: generator) }
        var result: [UInt8] = []
        for column in 0...short {
            for block in blocks where column < block.count { result.append(block[column]) }
        }
        for column in 0..<layout.correction {
            for correction in corrections { result.append(correction[column]) }
        }
        return result
    }

    /// The modules as SVG: one path of unit squares in a viewBox with a four-module quiet zone,
    /// scaled by the page; `label` is its accessible name.
    func svg(label: String) -> String {
        let quiet = 4
        var path = ""
        for (y, row) in modules.enumerated() {
            var x = 0
            while x < row.count {
                guard row[x] else { x += 1; continue }
                var run = 1
                while x + run < row.count && row[x + run] { run += 1 }
                path += "M\(x + quiet) \(y + quiet)h\(run)v1h-\(run)z"
                x += run
            }
        }
        let side = size + 2 * quiet
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(side) \(side)\" role=\"img\" aria-label=\"\(HTMLText.escape(label))\" "
            + "class=\"qr\" shape-rendering=\"crispEdges\"><rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/>"
            + "<path fill=\"#000\" d=\"\(path)\"/></svg>"
    }
}

/// Arithmetic in GF(2⁸) with the QR code's polynomial x⁸ + x⁴ + x³ + x² + 1, and the remainder
/// that makes a block's error correction codewords.
private enum ReedSolomon {
    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        var product: UInt8 = 0
        var a = a, b = b
        while b != 0 {
            if b & 1 == 1 { product ^= a }
            let carry = a & 0x80 != 0
            a <<= 1
            if carry { a ^= 0x1D }
            b >>= 1
        }
        return product
    }

    /// The coefficients (highest degree first, the leading 1 left out) of ∏ (x − αⁱ) for i < degree.
    static func generator(degree: Int) -> [UInt8] {
        var coefficients = [UInt8](repeating: 0, count: degree)
        coefficients[degree - 1] = 1
        var root: UInt8 = 1
        for _ in 0..<degree {
            for index in 0..<degree {
                coefficients[index] = multiply(coefficients[index], root)
                if index + 1 < degree { coefficients[index] ^= coefficients[index + 1] }
            }
            root = multiply(root, 2)
        }
        return coefficients
    }

    /// The data polynomial times x^degree, modulo the generator.
    static func remainder(_ data: [UInt8], generator: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: generator.count)
        for byte in data {
            let factor = byte ^ result.removeFirst()
            result.append(0)
            for index in result.indices { result[index] ^= multiply(generator[index], factor) }
        }
        return result
    }
}

/// The modules while a code is built, and which of them the function patterns hold.
private struct Grid {
    let version: Int
    let size: Int
    var dark: [[Bool]]
    var reserved: [[Bool]]

    init(version: Int) {
        self.version = version
        size = 17 + 4 * version
        dark = Array(repeating: Array(repeating: false, count: size), count: size)
        reserved = dark
    }

    mutating func set(_ x: Int, _ y: Int, _ value: Bool) {
        dark[y][x] = value
        reserved[y][x] = true
    }

    mutating func drawFunctionPatterns() {
        for index in 0..<size {
            set(6, index, index % 2 == 0)
            set(index, 6, index % 2 == 0)
        }
        for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] { drawFinder(x, y) }
        let centres = QRCode.alignment[version - 1]
        for cy in centres {
            for cx in centres where !((cx == 6 && cy == 6) || (cx == 6 && cy == centres.last!) || (cx == centres.last! && cy == 6)) {
                for dy in -2...2 {
                    for dx in -2...2 { set(cx + dx, cy + dy, max(abs(dx), abs(dy)) != 1) }
                }
            }
        }
        // Reserve the format areas (drawn for each mask) and draw the version, which no mask changes.
        drawFormat(mask: 0)
        if version >= 7 {
            let bits = Self.bch(version, width: 6, generator: 0x1F25)
            for index in 0..<18 {
                let on = (bits >> index) & 1 == 1
                let a = size - 11 + index % 3, b = index / 3
                set(a, b, on)
                set(b, a, on)
            }
        }
    }

    /// A finder pattern centred on (x, y) with its light separator, clipped to the grid.
    mutating func drawFinder(_ x: Int, _ y: Int) {
        for dy in -4...4 {
            for dx in -4...4 {
                let (px, py) = (x + dx, y + dy)
                guard (0..<size).contains(px), (0..<size).contains(py) else { continue }
                let ring = max(abs(dx), abs(dy))
                set(px, py, ring != 2 && ring != 4)
            }
        }
    }

    /// The 15 format bits (level M's 00, the mask) in both places, and the dark module.
    mutating func drawFormat(mask: Int) {
        let bits = Self.bch(mask, width: 5, generator: 0x537) ^ 0x5412
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
        for index in 0...5 { set(8, index, bit(index)) }
        set(8, 7, bit(6))
        set(8, 8, bit(7))
        set(7, 8, bit(8))
        for index in 9..<15 { set(14 - index, 8, bit(index)) }
        for index in 0..<8 { set(size - 1 - index, 8, bit(index)) }
        for index in 8..<15 { set(8, size - 15 + index, bit(index)) }
        set(8, size - 8, true)
    }

    /// `value` (of `width` bits) followed by its BCH remainder for `generator`.
    static func bch(_ value: Int, width: Int, generator: Int) -> Int {
        let degree = Int.bitWidth - generator.leadingZeroBitCount - 1
        var remainder = value << degree
        for shift in stride(from: width - 1, through: 0, by: -1) where (remainder >> (shift + degree)) & 1 == 1 {
            remainder ^= generator << shift
        }
        return value << degree | remainder
    }

    /// The codewords' bits in the zigzag: pairs of columns from the right, upward then downward,
    /// passing over the vertical timing column and every reserved module.
    mutating func place(_ codewords: [UInt8]) {
        var index = 0
        let total = codewords.count * 8
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            let upward = ((right + 1) & 2) == 0
            for step in 0..<size {
                let y = upward ? size - 1 - step : step
                for x in [right, right - 1] where !reserved[y][x] {
                    if index < total { dark[y][x] = (codewords[index / 8] >> (7 - index % 8)) & 1 == 1 }
                    index += 1
                }
            }
            right -= 2
        }
    }

    mutating func apply(mask: Int) {
        for y in 0..<size {
            for x in 0..<size where !reserved[y][x] {
                let flip = switch mask {
                case 0: (x + y) % 2 == 0
                case 1: y % 2 == 0
                case 2: x % 3 == 0
                case 3: (x + y) % 3 == 0
                case 4: (x / 3 + y / 2) % 2 == 0
                case 5: x * y % 2 + x * y % 3 == 0
                case 6: (x * y % 2 + x * y % 3) % 2 == 0
                default: ((x + y) % 2 + x * y % 3) % 2 == 0
                }
                if flip { dark[y][x].toggle() }
            }
        }
    }

    /// The penalty score of ISO/IEC 18004 §7.8.3: runs of five or more, 2 × 2 blocks, finder-like
    /// patterns, and the balance of dark and light.
    func penalty() -> Int {
        var score = 0
        let columns = (0..<size).map { x in (0..<size).map { dark[$0][x] } }
        for line in dark + columns {
            var run = 1
            for index in 1...line.count {
                if index < line.count && line[index] == line[index - 1] {
                    run += 1
                } else {
                    if run >= 5 { score += run - 2 }
                    run = 1
                }
            }
            let pattern: [Bool] = [true, false, true, true, true, false, true]
            for start in 0...(line.count - 7) where Array(line[start..<start + 7]) == pattern {
                let before = start >= 4 && !line[(start - 4)..<start].contains(true)
                let after = start + 11 <= line.count && !line[(start + 7)..<(start + 11)].contains(true)
                if before || after { score += 40 }
            }
        }
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) where dark[y][x] == dark[y][x + 1] && dark[y][x] == dark[y + 1][x] && dark[y][x] == dark[y + 1][x + 1] {
                score += 3
            }
        }
        let darkCount = dark.reduce(0) { $0 + $1.filter { $0 }.count }
        let total = size * size
        score += 10 * (abs(darkCount * 20 - total * 10) / total)
        return score
    }
}
