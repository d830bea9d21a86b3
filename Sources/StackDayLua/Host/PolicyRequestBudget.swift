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

    /// What the request open on this thread has left, and its whole budgets (for messages); nil
    /// when none is open.
    public static var left: RequestShare? {
        var work: Int64 = 0, cpu: Int64 = 0, workBudget: Int64 = 0, cpuBudget: Int64 = 0
        guard sd_request_left(&work, &cpu) != 0 else { return nil }
        sd_request_budgets(&workBudget, &cpuBudget)
        return RequestShare(instructions: Int(work), cpuNanoseconds: Int(cpu), budget: PolicyRequestBudget(
            instructions: Int(workBudget), cpuMilliseconds: Int(cpuBudget / 1_000_000)))
    }

    /// Charges the request open on this thread with work done for it elsewhere (a runner
    /// process), and ends it when that work spent the request's pool there.
    public static func take(instructions: Int, cpuNanoseconds: Int, spentRequest: RequestShare.Spent?) {
        let code: Int32 = switch spentRequest {
        case .work?: Int32(SD_SPENT_REQUEST_WORK)
        case .time?: Int32(SD_SPENT_REQUEST_TIME)
        case nil: Int32(SD_SPENT_NONE)
        }
        sd_request_take(Int64(instructions), Int64(cpuNanoseconds), code)
    }

    /// Runs `body` with `share` of a request begun elsewhere open on this thread: calls draw from
    /// what it has left and name its whole budgets. Returns what `body` gave, the work and CPU
    /// time it spent, and which of the request's budgets it ran out of.
    public static func resume<T>(_ share: RequestShare, _ body: () throws -> T) -> (result: Result<T, any Error>, instructions: Int, cpuNanoseconds: Int, spent: RequestShare.Spent?) {
        let started = sd_thread_cpu_ns()
        sd_request_resume(Int64(share.instructions), Int64(share.cpuNanoseconds), Int64(share.budget.instructions),
                          Int64(share.budget.cpuMilliseconds) * 1_000_000)
        let result = Result { try body() }
        var work: Int64 = 0, cpu: Int64 = 0
        _ = sd_request_left(&work, &cpu)
        let spent: RequestShare.Spent? = switch Int(sd_request_spent()) {
        case SD_SPENT_REQUEST_WORK: .work
        case SD_SPENT_REQUEST_TIME: .time
        default: nil
        }
        sd_request_end()
        return (result, max(0, share.instructions - Int(work)), Int(sd_thread_cpu_ns() - started), spent)
    }

    /// Runs `body` with the pool open on this thread; `body` must not move to another thread.
    public func run<T>(_ body: () throws -> T) rethrows -> T {
        sd_request_begin(Int64(instructions), Int64(cpuMilliseconds) * 1_000_000)
        defer { sd_request_end() }
        return try body()
    }
}
