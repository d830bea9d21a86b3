/// At most `width` callers inside at once; the rest wait their turn in arrival order. Tests that
/// each open connections to one shared server (`PostgresServer`, whose `max_connections` is
/// bounded) pass through one, however many cases the test runner starts side by side.
public actor AsyncGate {
    private let width: Int
    private var inside = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    public init(width: Int) {
        precondition(width > 0, "a gate lets at least one through")
        self.width = width
    }

    /// Runs `body` once fewer than `width` others are inside.
    public func through<T: Sendable>(_ body: @Sendable () async throws -> T) async rethrows -> T {
        if inside < width {
            inside += 1
        } else {
            // The one leaving hands its place straight to this waiter (`inside` stays as it is).
            await withCheckedContinuation { waiting.append($0) }
        }
        defer {
            if waiting.isEmpty { inside -= 1 } else { waiting.removeFirst().resume() }
        }
        return try await body()
    }
}
