import Foundation
import StackDay

/// One engine that many tasks can call at once: an app's, or a server's answering requests.
///
/// Requests run on threads the engine owns, never on Swift's cooperative pool, since SQLite and
/// Lua calls block. Each worker thread makes its own store connection and its own policy
/// resolver (its own Lua state) on first use, so no `sqlite3*` or `lua_State` is ever used by two
/// threads; callers `await` the result. Writes from different workers are serialized by the
/// store's transactions.
public final class HabitEngine: Sendable {
    private let queue = JobQueue()
    /// How many worker threads serve the engine (each runs until the engine stops).
    public let workers: Int
    /// The one owner whose habits and scripts the store holds; calls scoped to another owner are
    /// refused with `EngineError.unknownOwner`.
    public let owner: String

    /// Starts `workers` threads. `makeStore` and `makePolicies` are called once per worker, on that
    /// worker's thread; a store that several workers open must allow that (a SQLite file does).
    public init(
        workers: Int = 2,
        owner: String = "default",
        clock: any Clock,
        boundary: DayBoundary,
        makeStore: @escaping @Sendable () throws -> any HabitStore,
        makePolicies: @escaping @Sendable () throws -> any PolicyResolver
    ) {
        let queue = self.queue
        self.workers = max(1, workers)
        self.owner = owner
        for index in 0..<self.workers {
            let thread = Thread {
                var context: Result<HabitContext, any Error>?
                while let job = queue.pop() {
                    if context == nil {
                        context = Result { HabitContext(store: try makeStore(), clock: clock, boundary: boundary, policies: try makePolicies()) }
                    }
                    job(context!)
                }
            }
            thread.name = "stackday-engine-\(index)"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    deinit {
        queue.close()
    }

    /// Runs `body` with a worker's context and returns what it returns; throws what it throws,
    /// `EngineError.stopped` after `stop()`, or the error that kept the worker from opening its
    /// store or policies.
    public func perform<T: Sendable>(_ body: @escaping @Sendable (HabitContext) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let queued = queue.push { context in
                continuation.resume(with: Result { try body(context.get()) })
            }
            if !queued { continuation.resume(throwing: EngineError.stopped) }
        }
    }

    /// `perform`, for a call scoped to `owner`: throws `EngineError.unknownOwner` unless the store holds that owner.
    func perform<T: Sendable>(owner: String, _ body: @escaping @Sendable (HabitContext) throws -> T) async throws -> T {
        guard owner == self.owner else { throw EngineError.unknownOwner(owner) }
        return try await perform(body)
    }

    /// Finishes the requests already made and stops the workers; later requests throw `EngineError.stopped`.
    public func stop() {
        queue.close()
    }

    // MARK: The use cases, for callers that need no more than one at a time.

    /// `RecordCompletion` on `day` (default today).
    public func record(_ habit: HabitReference, amount: Double = 1, on day: LocalDay? = nil) async throws -> Completion {
        try await perform { try RecordCompletion(context: $0)(habit, amount: amount, on: day) }
    }

    /// `CancelCompletion`: removes the latest record of `day` (default today).
    public func undo(_ habit: HabitReference, on day: LocalDay? = nil) async throws -> Completion {
        try await perform { try CancelCompletion(context: $0)(habit, on: day) }
    }

    /// `SkipDays` over `days`.
    public func skip(_ habit: HabitReference, days: LocalDayRange) async throws -> [Skip] {
        try await perform { try SkipDays(context: $0)(habit, days: days) }
    }

    /// `SummarizeHabits`: every habit's statistics as of today (or one habit's).
    public func summaries(_ habit: HabitReference? = nil, includeArchived: Bool = true) async throws -> [Result<HabitSummary, HabitFailure>] {
        try await perform { try SummarizeHabits(context: $0)(habit, includeArchived: includeArchived) }
    }

    /// `BuildWeeklyReport` for the week of `day` (default today).
    public func weeklyReport(weekOf day: LocalDay? = nil) async throws -> WeeklyReport {
        try await perform { try BuildWeeklyReport(context: $0)(weekOf: day) }
    }

    /// `ListHabits`.
    public func habits(includeArchived: Bool = true) async throws -> [Habit] {
        try await perform { try ListHabits(context: $0)(includeArchived: includeArchived) }
    }
}
