import Foundation
import StackDay

/// Conversions between columns (as text) and domain values.
enum PostgresDecoding {
    static func uuid(_ rows: PostgresRows, _ row: Int, _ column: Int, table: String) throws -> UUID {
        let text = rows.text(row, column)
        guard let id = UUIDText.parse(text) ?? UUID(uuidString: text) else { throw corrupt(table, "id", text) }
        return id
    }

    static func day(_ rows: PostgresRows, _ row: Int, _ column: Int, table: String) throws -> LocalDay {
        let text = rows.text(row, column)
        do { return try LocalDay(iso: text) } catch { throw corrupt(table, "day", text) }
    }

    static func instant(_ rows: PostgresRows, _ row: Int, _ column: Int) -> Date {
        Date(timeIntervalSince1970: rows.real(row, column))
    }

    static func quantity(_ rows: PostgresRows, _ row: Int, _ column: Int) -> Double {
        Quantity.value(thousandths: rows.integer(row, column))
    }

    static func choice(_ rows: PostgresRows, _ row: Int, name: Int, table: String) throws -> PolicyChoice {
        let text = rows.text(row, name + 1)
        let choice: PolicyChoice
        do { choice = try PolicyChoice(name: rows.text(row, name), parametersJSON: text) } catch { throw corrupt(table, "policy parameters", text) }
        return rows.isNull(row, name + 2) ? choice : choice.pinned(to: rows.text(row, name + 2))
    }

    static func corrupt(_ table: String, _ column: String, _ value: String) -> PostgresError {
        PostgresError(sqlState: "", message: "a row of \(table) holds an unreadable \(column): '\(value.prefix(80))'", sql: nil)
    }

    static func id(_ id: UUID) -> PostgresValue { .text(UUIDText.format(id)) }
    static func day(_ day: LocalDay) -> PostgresValue { .text(day.iso) }
    static func instant(_ date: Date) -> PostgresValue { .real(date.timeIntervalSince1970) }
    static func thousandths(_ value: Double) -> PostgresValue { .integer(Quantity.roundedThousandths(value)) }
}
