import Foundation
import StackDay

/// Conversions between stored columns and domain values.
enum RowDecoding {
    static func uuid(_ row: Statement.Row, _ column: Int32, table: String) throws -> UUID {
        guard let id = UUIDText.parse(row.bytes(column)) else { throw StoreError.corruptRow(table: table, column: "id", value: row.text(column)) }
        return id
    }

    static func day(_ row: Statement.Row, _ column: Int32, table: String) throws -> LocalDay {
        if let day = LocalDay(isoBytes: row.bytes(column)) { return day }
        throw StoreError.corruptRow(table: table, column: "day", value: row.text(column))
    }

    static func instant(_ row: Statement.Row, _ column: Int32) -> Date {
        Date(timeIntervalSince1970: row.real(column))
    }

    /// Amounts are stored as integer thousandths so that sums are exact (0.1 + 0.2 = 0.3).
    static func thousandths(_ value: Double) -> Int64 { Quantity.roundedThousandths(value) }
    static func quantity(_ row: Statement.Row, _ column: Int32) -> Double { Quantity.value(thousandths: row.integer(column)) }

    static func parameters(_ row: Statement.Row, _ column: Int32, policy: String, table: String) throws -> PolicyChoice {
        let text = row.text(column)
        do { return try PolicyChoice(name: policy, parametersJSON: text) } catch {
            throw StoreError.corruptRow(table: table, column: "policy parameters", value: text)
        }
    }

    static func instantValue(_ date: Date) -> SQLValue { .real(date.timeIntervalSince1970) }
    static func dayValue(_ day: LocalDay) -> SQLValue { .text(day.iso) }
    static func idValue(_ id: UUID) -> SQLValue { .text(UUIDText.format(id)) }
}
