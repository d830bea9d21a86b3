import CLuaHost

/// One pool of policy work for everything a request does on the calling thread: every policy call
/// made inside `run`, in any Lua state, draws from the same instructions and CPU time, so a request
/// over fifty failing habits costs one bound, not fifty. Once the pool is spent, later calls fail
/// at once with `PolicyError` `.instructionBudget` or `.timeBudget` naming the request's budget.
public struct PolicyRequestBudget: Hashable, Sendable {
    /// Work for all the request's calls, counted as `PolicyBudget.instructions` is.
    public var instructions: Int
    /// Thread CPU time for all the request's calls, in milliseconds.
    public var cpuMilliseconds: Int

    public init(instructions: Int = 400_000_000, cpuMilliseconds: Int = 500) {
        self.instructions = instructions
        self.cpuMilliseconds = cpuMilliseconds
    }

    public static let standard = PolicyRequestBudget()

    /// Whether a request's pool is open on this thread.
    public static var isOpen: Bool { sd_request_open() != 0 }

    /// The calling thread's CPU time, in milliseconds.
    public static func threadCPUMilliseconds() -> Int { Int(sd_thread_cpu_ns() / 1_000_000) }

    /// Whether the request open on this thread has spent its pool.
    public static var isSpent: Bool { sd_request_spent() != SD_SPENT_NONE }

    /// Runs `body` with the pool open on this thread; `body` must not move to another thread.
    public func run<T>(_ body: () throws -> T) rethrows -> T {
        sd_request_begin(Int64(instructions), Int64(cpuMilliseconds) * 1_000_000)
        defer { sd_request_end() }
        return try body()
    }
}
