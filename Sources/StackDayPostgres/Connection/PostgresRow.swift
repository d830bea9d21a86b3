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

    func blob(_ column: String) -> [UInt8] { rows.bytes(row, index(column)) }
}
