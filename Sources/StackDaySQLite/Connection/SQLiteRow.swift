import Foundation
import StackDay
import StackDaySQL

/// A row of a SQLite result, its columns found by name in the statement's own column list.
///
/// Two words, so that the `any SQLRow` every row is handed as holds it inline (a larger row is
/// boxed on the heap, once a row).
struct SQLiteRow: SQLRow {
    let row: Statement.Row
    let statement: Statement

    private func index(_ column: String) -> Int32 {
        guard let index = statement.columnNames.firstIndex(of: column) else { preconditionFailure("no column \(column) in: \(statement.sql)") }
        return Int32(index)
    }

    func isNull(_ column: String) -> Bool { row.isNull(index(column)) }
    func text(_ column: String) -> String { row.text(index(column)) }
    func integer(_ column: String) -> Int64 { row.integer(index(column)) }
    func real(_ column: String) -> Double { row.real(index(column)) }
    func blob(_ column: String) -> [UInt8] { Array(row.blob(index(column))) }

    func day(_ column: String, table: String) throws -> LocalDay {
        let index = index(column)
        guard let day = LocalDay(isoBytes: row.bytes(index)) else { throw SQLRowError(table: table, column: column, value: row.text(index)) }
        return day
    }

    func uuid(_ column: String, table: String) throws -> UUID {
        let index = index(column)
        guard let id = UUIDText.parse(row.bytes(index)) else { throw SQLRowError(table: table, column: column, value: row.text(index)) }
        return id
    }
}
