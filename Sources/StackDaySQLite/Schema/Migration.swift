/// One forward-only schema step, applied once in its own transaction: its SQL, then (for data
/// SQL cannot compute, like Unicode case folding) a step in Swift.
struct Migration: Sendable {
    let id: Int
    let name: String
    let sql: String
    var backfill: (@Sendable (Database) throws -> Void)? = nil
}
