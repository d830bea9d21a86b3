import Foundation
import StackDay
import StackDaySQL
import Testing

/// The SQL both stores share: statements written once in PostgreSQL's form and rewritten for
/// SQLite, and rows decoded into domain values the same way whichever store read them.
@Suite("SQL core")
struct SQLCoreTests {
    @Test("a statement in PostgreSQL's form, as each dialect runs it", arguments: [
        ("SELECT * FROM habits WHERE owner = $1 AND id = $2::uuid", "SELECT * FROM habits WHERE owner = ?1 AND id = ?2"),
        ("UPDATE t SET a = $10, b = $2::bigint WHERE c = $1", "UPDATE t SET a = ?10, b = ?2 WHERE c = ?1"),
        ("SELECT '$' || name, price$ FROM t WHERE x = $3::text_array", "SELECT '$' || name, price$ FROM t WHERE x = ?3"),
        ("SELECT 1", "SELECT 1"),
        ("SELECT '요일 $' FROM t WHERE a = $1::uuid)", "SELECT '요일 $' FROM t WHERE a = ?1)"),
        ("SELECT a FROM t WHERE b = $2::", "SELECT a FROM t WHERE b = ?2"),
        ("SELECT a$", "SELECT a$"),
    ])
    func statements(_ postgres: String, _ sqlite: String) {
        #expect(SQLDialect.sqlite.statement(postgres) == sqlite)
        #expect(SQLDialect.postgres.statement(postgres) == postgres)
    }

    @Test("each dialect names its owner column and its tie break")
    func dialects() {
        #expect(SQLDialect.sqlite.owner == "owner" && SQLDialect.postgres.owner == "user_id")
        #expect(SQLDialect.sqlite.tieBreak == "rowid" && SQLDialect.postgres.tieBreak == "id")
        #expect(SQLDialect.sqlite.searchesKeyLists && !SQLDialect.postgres.searchesKeyLists)
    }

    /// A row of named columns, as either store hands one over.
    struct Row: SQLRow {
        let columns: [String: SQLValue]

        func isNull(_ column: String) -> Bool { columns[column] == nil || columns[column] == .null }
        func text(_ column: String) -> String {
            switch columns[column] {
            case .text(let text)?: text
            case .integer(let number)?: String(number)
            case .real(let number)?: String(number)
            default: ""
            }
        }
        func integer(_ column: String) -> Int64 { if case .integer(let number)? = columns[column] { return number }; return Int64(text(column)) ?? 0 }
        func real(_ column: String) -> Double { if case .real(let number)? = columns[column] { return number }; return Double(text(column)) ?? 0 }
        func blob(_ column: String) -> [UInt8] { if case .blob(let bytes)? = columns[column] { return bytes }; return [] }
    }

    @Test("rows decode into days, ids, instants, exact amounts and pinned policy choices")
    func decoding() throws {
        let id = UUID()
        let row = Row(columns: [
            "day": .text("2026-10-05"), "id": SQLValue.id(id), "at": .real(1_791_900_000.5), "amount": SQLValue.thousandths(0.3),
            "schedule_policy": .text("weekly"), "schedule_params": .text(#"{"days":["mon"]}"#), "schedule_sha256": .text("ab12"),
            "streak_policy": .text("strict"), "streak_params": .text("{}"), "note": .null,
        ])
        #expect(try row.day("day", table: "completions") == LocalDay(iso: "2026-10-05"))
        #expect(try row.uuid("id", table: "completions") == id)
        #expect(row.instant("at") == Date(timeIntervalSince1970: 1_791_900_000.5))
        #expect(row.quantity("amount") == 0.3 && SQLValue.thousandths(0.1 + 0.2) == .integer(300))
        let schedule = try row.choice(.schedule, table: "revisions")
        #expect(schedule.name == "weekly" && schedule.parameters == ["days": .array([.string("mon")])] && schedule.sha256 == "ab12")
        #expect(try row.choice(.streak, table: "revisions").sha256 == nil)
        #expect(row.optionalText("note") == nil)
        #expect(try row.optionalDay("note", table: "completions") == nil)
        #expect(SQLValue.day(nil as LocalDay?) == .null && SQLValue.optional(nil) == .null && SQLValue.optional("x") == .text("x"))
    }

    @Test("a value that does not decode names its table and column", arguments: [
        ("day", "2026-13-01"), ("id", "not-a-uuid"), ("schedule_params", "{not json"),
    ])
    func unreadable(_ column: String, _ value: String) {
        var columns: [String: SQLValue] = ["schedule_policy": .text("daily"), "schedule_params": .text("{}")]
        columns[column] = .text(value)
        let row = Row(columns: columns)
        let expected = SQLRowError(table: "t", column: column, value: value)
        #expect(throws: expected) {
            switch column {
            case "day": _ = try row.day("day", table: "t")
            case "id": _ = try row.uuid("id", table: "t")
            default: _ = try row.choice(.schedule, table: "t")
            }
        }
        #expect(expected.description == "a row of t holds an unreadable \(column): '\(value)'")
    }
}
