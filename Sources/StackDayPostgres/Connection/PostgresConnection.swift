import CPostgres
import StackDaySQL
import Foundation

/// One libpq connection, used by one thread at a time (the store that owns it is not shared
/// between threads; the engine gives each worker a store of its own).
///
/// Every statement goes with its values as parameters: no SQL is ever built from user text. A
/// statement run a second time is prepared (`PQprepare`, named per connection) and from then on
/// executed by name, so that PostgreSQL parses and plans it once, not at every call; the names
/// are forgotten when the connection is reset (a new session has none). A connection found
/// broken is reset once before the error is reported.
final class PostgresConnection {
    private var handle: OpaquePointer?
    let url: String

    /// Connects and sets the session up (UTC, a statement timeout). Throws `PostgresError`.
    init(url: String, statementTimeout: String = "30s") throws {
        self.url = url
        if let failure = sd_libpq_open() {
            throw PostgresError(sqlState: "", message: "cannot load libpq (apt-get install libpq5): " + String(cString: failure), sql: nil)
        }
        handle = sd_PQconnectdb(url)
        guard let handle, sd_PQstatus(handle) == CONNECTION_OK else {
            let message = handle.map { String(cString: sd_PQerrorMessage($0)) } ?? "out of memory"
            if let handle { sd_PQfinish(handle) }
            self.handle = nil
            throw PostgresError(sqlState: "", message: "cannot connect to PostgreSQL: " + message.trimmingCharacters(in: .whitespacesAndNewlines), sql: nil)
        }
        self.statementTimeout = statementTimeout
        try setUp()
    }

    deinit {
        if let handle { sd_PQfinish(handle) }
    }

    /// Whether libpq has found the connection broken (it notices when a statement fails).
    var isBroken: Bool { handle.map { sd_PQstatus($0) != CONNECTION_OK } ?? true }

    /// Connects again (after a server restart, a dropped network) and sets the session up again.
    func reset() throws {
        guard let handle else { throw PostgresError(sqlState: "", message: "the connection is closed", sql: nil) }
        sd_PQreset(handle)
        prepared = [:]
        seen = [:]
        guard sd_PQstatus(handle) == CONNECTION_OK else {
            throw PostgresError(sqlState: "08006", message: "lost the connection to PostgreSQL: " + String(cString: sd_PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines), sql: nil)
        }
        try setUp()
    }

    private var statementTimeout = "30s"

    /// The statements prepared on this connection, by their text, and how often each other one
    /// has run (a statement is prepared on its second run: one-offs, such as a migration's, never are).
    private var prepared: [String: String] = [:]
    private var seen: [String: Int] = [:]
    /// The most statements one connection keeps prepared (the stores run a few dozen texts; a
    /// page of sync lookups a few more, one per list length).
    static let preparedLimit = 512

    /// The name `sql` runs under, preparing it now when it has run before; nil to run it unnamed.
    private func statementName(_ sql: String, parameters: Int, handle: OpaquePointer) -> String? {
        if let name = prepared[sql] { return name }
        guard parameters > 0, prepared.count < Self.preparedLimit else { return nil }
        let runs = (seen[sql] ?? 0) + 1
        guard runs >= 2 else {
            if seen.count >= Self.preparedLimit * 4 { seen = [:] }
            seen[sql] = runs
            return nil
        }
        seen[sql] = nil
        let name = "sd_\(prepared.count + 1)"
        guard let result = sd_PQprepare(handle, name, sql, Int32(parameters)) else { return nil }
        defer { sd_PQclear(result) }
        // A statement that does not prepare runs unnamed, which reports its error as usual.
        guard sd_PQresultStatus(result) == PGRES_COMMAND_OK else { return nil }
        prepared[sql] = name
        return name
    }

    private func setUp() throws {
        try execute("SET TIME ZONE 'UTC'")
        try execute("SET statement_timeout = '\(statementTimeout)'")
        try execute("SET client_min_messages = warning")
    }

    /// Runs one statement with `$1…$n` parameters and returns its rows.
    @discardableResult
    func execute(_ sql: String, _ values: [SQLValue] = []) throws -> PostgresRows {
        guard let handle else { throw PostgresError(sqlState: "", message: "the connection is closed", sql: sql) }
        let texts = values.map(Self.text)
        let pointers = texts.map { $0.flatMap { strdup($0) } }
        defer { pointers.forEach { free($0) } }
        let name = statementName(sql, parameters: values.count, handle: handle)
        let result = pointers.map { UnsafePointer($0) }.withUnsafeBufferPointer { buffer in
            if let name { return sd_PQexecPrepared(handle, name, Int32(values.count), buffer.baseAddress) }
            return sd_PQexecParams(handle, sql, Int32(values.count), nil, buffer.baseAddress, nil, nil, 0)
        }
        guard let result else {
            throw PostgresError(sqlState: "", message: String(cString: sd_PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines), sql: sql)
        }
        do {
            try check(result, sql: sql)
        } catch {
            sd_PQclear(result)
            throw error
        }
        return PostgresRows(result)
    }

    /// Runs `COPY … FROM STDIN` and streams `data` (rows in COPY's text format) in the COPY
    /// protocol: no statement per row, no parameters to parse. Throws `PostgresError`.
    func copyIn(_ sql: String, data: [UInt8]) throws {
        guard let handle else { throw PostgresError(sqlState: "", message: "the connection is closed", sql: sql) }
        guard let start = sd_PQexec(handle, sql) else {
            throw PostgresError(sqlState: "", message: String(cString: sd_PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines), sql: sql)
        }
        let started = sd_PQresultStatus(start)
        if started != PGRES_COPY_IN { try check(start, sql: sql) }
        sd_PQclear(start)
        var offset = 0
        var sent = true
        // Chunks of 1 MiB: libpq buffers what it cannot send at once.
        while offset < data.count, sent {
            let count = min(1 << 20, data.count - offset)
            sent = data.withUnsafeBufferPointer { buffer in
                buffer.baseAddress!.advanced(by: offset).withMemoryRebound(to: CChar.self, capacity: count) { sd_PQputCopyData(handle, $0, Int32(count)) == 1 }
            }
            offset += count
        }
        _ = sd_PQputCopyEnd(handle, sent ? nil : "the client could not send the rows")
        // The command's result, then nil.
        var failure: PostgresError?
        while let result = sd_PQgetResult(handle) {
            do { try check(result, sql: sql) } catch let error as PostgresError { failure = failure ?? error }
            sd_PQclear(result)
        }
        if let failure { throw failure }
    }

    /// Throws the error a result carries; nothing for a command or query that succeeded. Leaves the result to the caller.
    private func check(_ result: OpaquePointer, sql: String) throws {
        let status = sd_PQresultStatus(result)
        guard status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK else { return }
        let state = sd_PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
        let message = sd_PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
            ?? handle.map { String(cString: sd_PQerrorMessage($0)).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "unknown error"
        throw PostgresError(sqlState: state, message: message, sql: sql)
    }

    /// The first column of the first row, or nil.
    func scalar(_ sql: String, _ values: [SQLValue] = []) throws -> String? {
        let rows = try execute(sql, values)
        return rows.count > 0 && !rows.isNull(0, 0) ? rows.text(0, 0) : nil
    }

    /// A parameter as the text PostgreSQL reads it into its column's type: numbers with every
    /// significant digit (`double precision` reads them back exactly), a blob as bytea's `\x…` hex.
    static func text(_ value: SQLValue) -> String? {
        switch value {
        case .null: return nil
        case .text(let text): return text
        case .integer(let number): return String(number)
        case .real(let number): return "\(number)"
        case .blob(let bytes):
            var text = [UInt8](repeating: 0, count: 2 + bytes.count * 2)
            text[0] = UInt8(ascii: "\\")
            text[1] = UInt8(ascii: "x")
            for (index, byte) in bytes.enumerated() {
                text[2 + index * 2] = hexDigits[Int(byte >> 4)]
                text[3 + index * 2] = hexDigits[Int(byte & 15)]
            }
            return String(decoding: text, as: UTF8.self)
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
