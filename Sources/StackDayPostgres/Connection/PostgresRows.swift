import CPostgres

/// A query's result, cleared in `deinit`. Values come back as text.
final class PostgresRows {
    private let result: OpaquePointer

    init(_ result: OpaquePointer) {
        self.result = result
    }

    deinit {
        sd_PQclear(result)
    }

    var count: Int { Int(sd_PQntuples(result)) }

    /// Rows a command changed (`UPDATE`, `DELETE`, `INSERT … ON CONFLICT DO NOTHING`).
    var changed: Int { Int(String(cString: sd_PQcmdTuples(result))) ?? 0 }

    /// The index of the result column `name`, or -1.
    func column(named name: String) -> Int { Int(sd_PQfnumber(result, name)) }

    func isNull(_ row: Int, _ column: Int) -> Bool { sd_PQgetisnull(result, Int32(row), Int32(column)) == 1 }

    func text(_ row: Int, _ column: Int) -> String {
        guard let value = sd_PQgetvalue(result, Int32(row), Int32(column)) else { return "" }
        return String(cString: value)
    }

    /// A bytea value's bytes. libpq undoes its text form (`\x` and two hex digits a byte) in C,
    /// straight from the result: a cached evaluation is tens of kilobytes, read on every figure.
    func bytes(_ row: Int, _ column: Int) -> [UInt8] {
        guard let value = sd_PQgetvalue(result, Int32(row), Int32(column)) else { return [] }
        var length = 0
        guard let raw = sd_PQunescapeBytea(value, &length) else { return [] }
        defer { sd_PQfreemem(raw) }
        return Array(UnsafeBufferPointer(start: raw, count: length))
    }

    func integer(_ row: Int, _ column: Int) -> Int64 { Int64(text(row, column)) ?? 0 }

    func real(_ row: Int, _ column: Int) -> Double { Double(text(row, column)) ?? 0 }
}
