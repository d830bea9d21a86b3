import StackDay
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
        guard text.count >= 2, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x") else { return [] }
        return HexText.bytes(text.dropFirst(2)) ?? []
    }
}
