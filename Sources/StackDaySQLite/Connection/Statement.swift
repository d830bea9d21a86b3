import CSQLite
import Foundation
import StackDaySQL

/// A prepared statement, reused across calls and finalized in `deinit`.
final class Statement {
    let sql: String
    private let handle: OpaquePointer
    private unowned let database: Database

    init(database: Database, sql: String) throws(DatabaseError) {
        var pointer: OpaquePointer?
        let code = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil)
        guard code == SQLITE_OK, let pointer else {
            sqlite3_finalize(pointer)
            throw database.error(code, sql: sql)
        }
        self.sql = sql
        self.handle = pointer
        self.database = database
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Binds values to the `?` parameters in order, after resetting the statement.
    func bind(_ values: [SQLValue]) throws(DatabaseError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(handle, index)
            case .integer(let number): code = sqlite3_bind_int64(handle, index, number)
            case .real(let number): code = sqlite3_bind_double(handle, index, number)
            case .text(var text):
                // By byte count, not up to a NUL: text is stored byte for byte.
                code = text.withUTF8 { bytes in
                    guard bytes.count > 0 else { return stackday_sqlite3_bind_text(handle, index, "", 0) }
                    return bytes.withMemoryRebound(to: CChar.self) { stackday_sqlite3_bind_text(handle, index, $0.baseAddress, Int32($0.count)) }
                }
            case .blob(let bytes):
                code = bytes.withUnsafeBytes { stackday_sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count)) }
            }
            guard code == SQLITE_OK else { throw database.error(code, sql: sql) }
        }
    }

    /// Resets the statement for new values bound one by one (the allocation-free path for bulk writes).
    func reset() {
        sqlite3_reset(handle)
    }

    func bind(_ index: Int32, integer: Int64) throws(DatabaseError) {
        let code = sqlite3_bind_int64(handle, index, integer)
        guard code == SQLITE_OK else { throw database.error(code, sql: sql) }
    }

    func bindNull(_ index: Int32) throws(DatabaseError) {
        let code = sqlite3_bind_null(handle, index)
        guard code == SQLITE_OK else { throw database.error(code, sql: sql) }
    }

    func bind(_ index: Int32, real: Double) throws(DatabaseError) {
        let code = sqlite3_bind_double(handle, index, real)
        guard code == SQLITE_OK else { throw database.error(code, sql: sql) }
    }

    /// Binds UTF-8 bytes as text; SQLite copies them before returning.
    func bind(_ index: Int32, text bytes: UnsafeBufferPointer<UInt8>) throws(DatabaseError) {
        let code = bytes.withMemoryRebound(to: CChar.self) { stackday_sqlite3_bind_text(handle, index, $0.baseAddress, Int32($0.count)) }
        guard code == SQLITE_OK else { throw database.error(code, sql: sql) }
    }

    /// Steps to completion, ignoring rows, then resets.
    func execute() throws(DatabaseError) {
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Steps once; true when a row is available.
    func step() throws(DatabaseError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = database.error(code, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs the statement to completion, ignoring rows.
    func run(_ values: [SQLValue] = []) throws(DatabaseError) {
        try bind(values)
        while try step() {}
        sqlite3_reset(handle)
    }

    /// Runs the statement and maps every row.
    func rows<T>(_ values: [SQLValue] = [], _ map: (Row) throws -> T) throws -> [T] {
        try bind(values)
        defer { sqlite3_reset(handle) }
        var result: [T] = []
        let row = Row(handle: handle)
        while try step() { result.append(try map(row)) }
        return result
    }

    /// Runs the statement and hands every row to `body`, building nothing in between.
    func forEachRow(_ values: [SQLValue] = [], _ body: (Row) throws -> Void) throws {
        try bind(values)
        defer { sqlite3_reset(handle) }
        let row = Row(handle: handle)
        while try step() { try body(row) }
    }

    /// The result columns' names (as the statement's text names them), in order: a row finds a
    /// column by comparing a handful of short names, cheaper than hashing the name for every
    /// value it reads (timelines read thousands of rows).
    private(set) lazy var columnNames: [String] = (0..<sqlite3_column_count(handle)).map { column in
        sqlite3_column_name(handle, column).map { String(cString: $0) } ?? ""
    }

    /// A read-only view of the current row.
    struct Row {
        let handle: OpaquePointer

        func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
        func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
        func real(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
        func text(_ column: Int32) -> String {
            String(decoding: bytes(column), as: UTF8.self)
        }
        /// A BLOB column's bytes, valid until the row moves on.
        func blob(_ column: Int32) -> UnsafeRawBufferPointer {
            guard let pointer = sqlite3_column_blob(handle, column) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
            return UnsafeRawBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, column)))
        }

        /// The column's bytes without building a String.
        func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8> {
            guard let pointer = sqlite3_column_text(handle, column) else { return UnsafeBufferPointer(start: nil, count: 0) }
            return UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, column)))
        }
    }
}
