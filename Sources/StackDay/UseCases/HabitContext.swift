import Foundation

/// What every use case works with: the store, the clock, the user's day boundary and the policies.
public struct HabitContext {
    public let store: any HabitStore
    public let clock: any Clock
    public let boundary: DayBoundary
    public let policies: any PolicyResolver
    /// Whether reads reuse and keep the store's cached policy answers (`CachedEvaluation`);
    /// off, every read evaluates from scratch. The figures are the same either way.
    public let usesEvaluationCache: Bool
    /// The limits every user is held to unless the user has limits of their own (a server's
    /// `--limit`s; the standard ones unless set). `limits(of:in:)` lays a user's over them.
    public let limits: UserLimits

    public init(
        store: any HabitStore, clock: any Clock, boundary: DayBoundary, policies: any PolicyResolver = StandardPolicyResolver(),
        usesEvaluationCache: Bool = true, limits: UserLimits = .standard
    ) {
        self.store = store
        self.clock = clock
        self.boundary = boundary
        self.policies = policies
        self.usesEvaluationCache = usesEvaluationCache
        self.limits = limits
    }

    /// The limits `user` (this store's owner unless named) is held to, read in `tx`: the user's
    /// own laid over this context's.
    public func limits(of user: String? = nil, in tx: any HabitTransaction) throws -> UserLimits {
        guard let own = try tx.users.user(named: user ?? store.owner)?.limits else { return limits }
        return limits.overlaid(with: own)
    }

    /// Today for this user, from the clock and the day boundary.
    public var today: LocalDay { boundary.day(for: clock.now) }

    /// Where this user's policy names are found (`PolicyDirectory`).
    public var directory: PolicyDirectory { PolicyDirectory(context: self) }

    /// The habit with this name (case-insensitive); throws `UseCaseError.habitNotFound`.
    func habit(named name: String, in tx: any HabitTransaction) throws -> Habit {
        guard let habit = try tx.habits.habit(named: name) else {
            throw UseCaseError.habitNotFound(name: name, suggestion: DidYouMean.suggestion(for: name, among: try tx.habits.all().map(\.name)))
        }
        return habit
    }

    /// The habit a reference names; throws `UseCaseError.habitNotFound` or `.habitIDNotFound`.
    func habit(_ reference: HabitReference, in tx: any HabitTransaction) throws -> Habit {
        switch reference {
        case .name(let name): try habit(named: name, in: tx)
        case .id(let id): try habit(id: id, in: tx)
        }
    }

    /// The habit with this id; throws `UseCaseError.habitIDNotFound`.
    func habit(id: UUID, in tx: any HabitTransaction) throws -> Habit {
        guard let habit = try tx.habits.habit(id: id) else { throw UseCaseError.habitIDNotFound(id: id) }
        return habit
    }

    /// Checks that no other habit has this name (case-insensitive).
    /// Refuses parameters a policy's schema does not take: unknown or misspelled keys, missing
    /// required ones, wrong types, values out of range. Called for the choices a write names, never
    /// for revisions already stored.
    func checkParameters(_ choices: [PolicyChoice], in tx: any HabitTransaction) throws {
        try checkParameters(choices, scripts: tx.scripts)
    }

    func checkParameters(_ choices: [PolicyChoice], scripts: any PolicyScriptRepository) throws {
        for choice in choices {
            if let schema = try policies.parameterSchema(for: choice, scripts: scripts) { try schema.check(choice.parameters, policy: choice.name) }
        }
    }

    func requireUniqueName(_ name: String, except id: UUID? = nil, in tx: any HabitTransaction) throws {
        try Habit.checkNewName(name)
        if let existing = try tx.habits.habit(named: name), existing.id != id {
            throw UseCaseError.duplicateName(name: existing.name)
        }
    }
}
