/// One forward-only schema step, applied once in its own transaction.
struct Migration {
    let id: Int
    let name: String
    let sql: String
}
