import Foundation
import StackDay

/// One engine that many tasks can call at once: an app's, or a server's answering requests.
///
/// Requests run on threads the engine owns, never on Swift's cooperative pool, since SQLite and
/// Lua calls block. Each worker thread makes its own store connection and its own policy
/// resolver (its own Lua state) on first use, so no `sqlite3*` or `lua_State` is ever used by two
/// threads; callers `await` the result. Writes from different workers are serialized by the
/// store's transactions.
///
/// Calls that take an `owner` act for that user: the worker's store scoped to it, with a policy
/// resolver of that owner's own, so one user's scripts never run in a Lua state that another's use.
public final class HabitEngine: Sendable {
    private let queue = JobQueue()
    /// How many worker threads serve the engine (each runs until the engine stops).
    public let workers: Int
    /// The owner that calls naming none act for.
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
                let contexts = OwnerContexts(makeStore: makeStore, makePolicies: makePolicies)
                while let job = queue.pop() { job { owner in try contexts.context(for: owner, clock: clock, boundary: boundary) } }
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
        try await perform(owner: owner, body)
    }

    /// `perform` acting for `owner`: the context's store and policies are that owner's.
    public func perform<T: Sendable>(owner: String, _ body: @escaping @Sendable (HabitContext) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let queued = queue.push { contextFor in
                continuation.resume(with: Result { try body(contextFor(owner)) })
            }
            if !queued { continuation.resume(throwing: EngineError.stopped) }
        }
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
