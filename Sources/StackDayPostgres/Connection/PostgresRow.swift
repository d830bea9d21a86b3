import StackDaySQL

/// One row of a PostgreSQL result, its columns found by name (`PQfnumber`).
struct PostgresRow: SQLRow {
    let rows: PostgresRows
    let row: Int
    let sql: String

    private func index(_ column: String) -> Int {
        let index = rows.column(named: column)
        guard index >= 0 else { preconditionFailure("no column \(column) in: \(sql)") }
        return index
    }

    func isNull(_ column: String) -> Bool { rows.isNull(row, index(column)) }
    func text(_ column: String) -> String { rows.text(row, index(column)) }
    func integer(_ column: String) -> Int64 { rows.integer(row, index(column)) }
    func real(_ column: String) -> Double { rows.real(row, index(column)) }

    /// bytea comes back as text in its hex form, `\x` and two digits a byte.
    func blob(_ column: String) -> [UInt8] {
        let text = Array(rows.text(row, index(column)).utf8)
        guard text.count >= 2, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x"), text.count % 2 == 0 else { return [] }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var bytes = [UInt8](repeating: 0, count: (text.count - 2) / 2)
        for index in bytes.indices {
            guard let high = nibble(text[2 + index * 2]), let low = nibble(text[3 + index * 2]) else { return [] }
            bytes[index] = high << 4 | low
        }
        return bytes
    }
}
