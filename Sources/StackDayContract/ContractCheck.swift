import StackDay

/// One named rule of the repository contract, runnable against any `HabitStore`.
public struct ContractCheck: Sendable, CustomStringConvertible {
    public let description: String
    let body: @Sendable (any HabitStore) throws -> Void

    /// A check of the repositories, run inside one write transaction.
    init(_ description: String, _ body: @escaping @Sendable (any HabitTransaction) throws -> Void) {
        self.description = description
        self.body = { store in try store.write { tx in try body(tx) } }
    }

    /// A check of the store itself (its transactions).
    init(store description: String, _ body: @escaping @Sendable (any HabitStore) throws -> Void) {
        self.description = description
        self.body = body
    }

    /// Runs the check against a fresh, empty store; throws `ContractFailure` when it fails.
    public func run(on store: any HabitStore) throws {
        try body(store)
    }
}
