/// One forward-only schema step, applied once in its own transaction: its SQL, then (for data
/// SQL cannot compute, like Unicode case folding) a step in Swift.
struct Migration: Sendable {
    let id: Int
    let name: String
    let sql: String
    var backfill: (@Sendable (Database) throws -> Void)? = nil
    /// Whether the step copies tables into new ones and drops the old: it then runs with foreign
    /// keys off (so dropping a parent deletes no children) and checks them all before committing.
    var rebuildsTables = false
}
