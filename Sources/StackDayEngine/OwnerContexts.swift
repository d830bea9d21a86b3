import Foundation
import StackDay

/// One thread's stores and policy resolvers, one pair per owner, made on first use: the thread's
/// store opened once and scoped to each owner over the same connection, and a policy resolver (a
/// Lua state) of each owner's own, so one user's scripts never run in a state another's use.
///
/// Used by one thread at a time (a worker owns it); it holds at most `limit` owners and lets them
/// all go when a new one would pass that.
public final class OwnerContexts {
    public static let limit = 64
    private let makeStore: () throws -> any HabitStore
    private let makePolicies: () throws -> any PolicyResolver
    private var store: Result<any HabitStore, any Error>?
    private var byOwner: [String: (store: any HabitStore, policies: any PolicyResolver)] = [:]
    /// Whether the contexts read and keep the store's cached evaluations (`HabitContext`).
    public let usesEvaluationCache: Bool
    /// The limits every user is held to unless they have their own (`HabitContext.limits`).
    public let limits: UserLimits

    public init(makeStore: @escaping () throws -> any HabitStore, makePolicies: @escaping () throws -> any PolicyResolver,
                usesEvaluationCache: Bool = true, limits: UserLimits = .standard) {
        self.makeStore = makeStore
        self.makePolicies = makePolicies
        self.usesEvaluationCache = usesEvaluationCache
        self.limits = limits
    }

    /// `owner`'s context with this clock and day boundary. Throws what opening the store (once,
    /// remembered) or the policies failed with.
    public func context(for owner: String, clock: any Clock, boundary: DayBoundary) throws -> HabitContext {
        if let existing = byOwner[owner] {
            return HabitContext(store: existing.store, clock: clock, boundary: boundary, policies: existing.policies,
                                usesEvaluationCache: usesEvaluationCache, limits: limits)
        }
        let scoped = try baseStore().scoped(to: owner)
        let policies = try makePolicies()
        if byOwner.count >= Self.limit { byOwner.removeAll() }
        byOwner[owner] = (scoped, policies)
        return HabitContext(store: scoped, clock: clock, boundary: boundary, policies: policies, usesEvaluationCache: usesEvaluationCache,
                            limits: limits)
    }

    /// The server-wide context: the thread's store as opened, in no user's zone, for what is not
    /// any one owner's (users, sessions, pairing).
    public func baseContext(clock: any Clock) throws -> HabitContext {
        HabitContext(store: try baseStore(), clock: clock, boundary: DayBoundary(timeZone: TimeZone(secondsFromGMT: 0) ?? .gmt), limits: limits)
    }

    /// The thread's store as opened (for what is not any one owner's, such as its users). A store
    /// that failed to open is tried again on the next call.
    public func baseStore() throws -> any HabitStore {
        if case .success(let opened) = store { return opened }
        let opened = Result { try makeStore() }
        store = opened
        return try opened.get()
    }

    /// Lets `owner`'s context go when its policies hold more than `bytes` (a Lua state that kept
    /// what its scripts built): the next request makes it anew. Returns whether it was let go.
    @discardableResult
    public func release(_ owner: String, holdingMoreThan bytes: Int) -> Bool {
        guard let existing = byOwner[owner], existing.policies.retainedBytes > bytes else { return false }
        byOwner[owner] = nil
        return true
    }
}
