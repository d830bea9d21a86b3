import CPostgres
import Foundation

/// One libpq connection, used by one thread at a time (the store that owns it is not shared
/// between threads; the engine gives each worker a store of its own).
///
/// Every statement goes through `PQexecParams` with its values as parameters: no SQL is ever
/// built from user text. A connection found broken is reset once before the error is reported.
final class PostgresConnection {
    private var handle: OpaquePointer?
    let url: String

    /// Connects and sets the session up (UTC, a statement timeout). Throws `PostgresError`.
    init(url: String, statementTimeout: String = "30s") throws {
        self.url = url
        handle = PQconnectdb(url)
        guard let handle, PQstatus(handle) == CONNECTION_OK else {
            let message = handle.map { String(cString: PQerrorMessage($0)) } ?? "out of memory"
            if let handle { PQfinish(handle) }
            self.handle = nil
            throw PostgresError(sqlState: "", message: "cannot connect to PostgreSQL: " + message.trimmingCharacters(in: .whitespacesAndNewlines), sql: nil)
        }
        self.statementTimeout = statementTimeout
        try setUp()
    }

    deinit {
        if let handle { PQfinish(handle) }
    }

    /// Whether libpq has found the connection broken (it notices when a statement fails).
    var isBroken: Bool { handle.map { PQstatus($0) != CONNECTION_OK } ?? true }

    /// Connects again (after a server restart, a dropped network) and sets the session up again.
    func reset() throws {
        guard let handle else { throw PostgresError(sqlState: "", message: "the connection is closed", sql: nil) }
        PQreset(handle)
        guard PQstatus(handle) == CONNECTION_OK else {
            throw PostgresError(sqlState: "08006", message: "lost the connection to PostgreSQL: " + String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines), sql: nil)
        }
        try setUp()
    }

    private var statementTimeout = "30s"

    private func setUp() throws {
        try execute("SET TIME ZONE 'UTC'")
        try execute("SET statement_timeout = '\(statementTimeout)'")
        try execute("SET client_min_messages = warning")
    }

    /// Runs one statement with `$1…$n` parameters and returns its rows.
    @discardableResult
    func execute(_ sql: String, _ values: [PostgresValue] = []) throws -> PostgresRows {
        guard let handle else { throw PostgresError(sqlState: "", message: "the connection is closed", sql: sql) }
        let texts = values.map(\.text)
        let pointers = texts.map { $0.flatMap { strdup($0) } }
        defer { pointers.forEach { free($0) } }
        let result = pointers.map { UnsafePointer($0) }.withUnsafeBufferPointer { buffer in
            PQexecParams(handle, sql, Int32(values.count), nil, buffer.baseAddress, nil, nil, 0)
        }
        guard let result else {
            throw PostgresError(sqlState: "", message: String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines), sql: sql)
        }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            let message = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
                ?? String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines)
            PQclear(result)
            throw PostgresError(sqlState: state, message: message, sql: sql)
        }
        return PostgresRows(result)
    }

    /// The first column of the first row, or nil.
    func scalar(_ sql: String, _ values: [PostgresValue] = []) throws -> String? {
        let rows = try execute(sql, values)
        return rows.count > 0 && !rows.isNull(0, 0) ? rows.text(0, 0) : nil
    }
}
