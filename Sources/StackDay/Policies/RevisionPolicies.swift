/// The policies of each of one habit's revisions, resolved on first use and kept for the evaluation.
public final class RevisionPolicies {
    private let resolve: (HabitRevision) throws -> HabitPolicies
    private var resolved: [Int: HabitPolicies] = [:]

    /// Policies from `resolve`, called at most once per revision number.
    public init(_ resolve: @escaping (HabitRevision) throws -> HabitPolicies) {
        self.resolve = resolve
    }

    /// The same policies for every revision (tests, and the Swift built-ins).
    public convenience init(uniform policies: HabitPolicies) {
        self.init { _ in policies }
    }

    /// Resolves through `resolver`, pinned scripts read from `scripts`.
    public convenience init(habit: Habit, resolver: any PolicyResolver, scripts: any PolicyScriptRepository) {
        self.init { try resolver.policies(for: habit, revision: $0, scripts: scripts) }
    }

    public func policies(for revision: HabitRevision) throws -> HabitPolicies {
        if let policies = resolved[revision.number] { return policies }
        let policies = try resolve(revision)
        resolved[revision.number] = policies
        return policies
    }
}
