import Foundation
import StackDay

/// One row of a result, its columns read by name (a statement's columns are named in its text,
/// so reordering them cannot misread a row).
public protocol SQLRow {
    func isNull(_ column: String) -> Bool
    /// The column as text; empty for NULL.
    func text(_ column: String) -> String
    func integer(_ column: String) -> Int64
    func real(_ column: String) -> Double
    /// The column's bytes (a BLOB, or PostgreSQL's bytea).
    func blob(_ column: String) -> [UInt8]
    /// An ISO day (`2026-10-05`); a row may read it without building a String (timelines read
    /// thousands).
    func day(_ column: String, table: String) throws -> LocalDay
    func uuid(_ column: String, table: String) throws -> UUID
}

/// Domain values from columns, the same for both stores; a value that does not decode is a
/// `SQLRowError` naming the table and column.
extension SQLRow {
    public func optionalText(_ column: String) -> String? { isNull(column) ? nil : text(column) }

    public func uuid(_ column: String, table: String) throws -> UUID {
        let text = self.text(column)
        guard let id = UUIDText.parse(text) ?? UUID(uuidString: text) else { throw SQLRowError(table: table, column: column, value: text) }
        return id
    }

    public func day(_ column: String, table: String) throws -> LocalDay {
        let text = self.text(column)
        do { return try LocalDay(iso: text) } catch { throw SQLRowError(table: table, column: column, value: text) }
    }

    public func optionalDay(_ column: String, table: String) throws -> LocalDay? {
        isNull(column) ? nil : try day(column, table: table)
    }

    public func instant(_ column: String) -> Date { Date(timeIntervalSince1970: real(column)) }

    /// Amounts are stored as integer thousandths so that sums are exact (0.1 + 0.2 = 0.3).
    public func quantity(_ column: String) -> Double { Quantity.value(thousandths: integer(column)) }

    /// A policy choice from `ROLE_policy`, `ROLE_params` and `ROLE_sha256` (NULL while unpinned).
    public func choice(_ role: PolicyRole, table: String) throws -> PolicyChoice {
        let prefix = role.rawValue
        let parameters = text(prefix + "_params")
        let choice: PolicyChoice
        do { choice = try PolicyChoice(name: text(prefix + "_policy"), parametersJSON: parameters) } catch {
            throw SQLRowError(table: table, column: prefix + "_params", value: parameters)
        }
        return isNull(prefix + "_sha256") ? choice : choice.pinned(to: text(prefix + "_sha256"))
    }
}

/// Bound values from domain values, the same for both stores.
extension SQLValue {
    public static func id(_ id: UUID) -> SQLValue { .text(UUIDText.format(id)) }
    public static func day(_ day: LocalDay) -> SQLValue { .text(day.iso) }
    public static func day(_ day: LocalDay?) -> SQLValue { day.map { .text($0.iso) } ?? .null }
    public static func instant(_ date: Date) -> SQLValue { .real(date.timeIntervalSince1970) }
    public static func thousandths(_ value: Double) -> SQLValue { .integer(Quantity.roundedThousandths(value)) }
    public static func optional(_ text: String?) -> SQLValue { text.map(SQLValue.text) ?? .null }
}
