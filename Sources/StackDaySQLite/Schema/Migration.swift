/// One forward-only schema step, applied once in its own transaction: its SQL, then (for data
/// SQL cannot compute, like Unicode case folding) a step in Swift.
///
/// The SQL is written out only when the step runs: a store already at the latest schema (every
/// open but the first) builds none of the steps' text, which is most of what opening cost.
struct Migration: Sendable {
    let id: Int
    let name: String
    /// The step's SQL, written when asked for.
    let sql: @Sendable () -> String
    var backfill: (@Sendable (Database) throws -> Void)?
    /// Whether the step copies tables into new ones and drops the old: it then runs with foreign
    /// keys off (so dropping a parent deletes no children) and checks them all before committing.
    var rebuildsTables: Bool

    init(id: Int, name: String, sql: @escaping @Sendable @autoclosure () -> String,
         backfill: (@Sendable (Database) throws -> Void)? = nil, rebuildsTables: Bool = false) {
        self.id = id
        self.name = name
        self.sql = sql
        self.backfill = backfill
        self.rebuildsTables = rebuildsTables
    }
}
