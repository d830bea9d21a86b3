import StackDay

/// Versioned policies, each call scoped to the owner whose habits and scripts it touches.
extension HabitEngine {
    /// `InstallPolicy`: vets `source` (loads it in the sandbox, runs its examples) and stores it
    /// under its SHA-256. Throws `PolicyRefusal` with every failure; nothing is stored then.
    public func installPolicy(owner: String, name: String, source: String) async throws -> PolicyScript {
        try await perform(owner: owner) { try InstallPolicy(context: $0)(name: name, source: source) }
    }

    /// The owner's stored scripts, oldest first.
    public func policyScripts(owner: String) async throws -> [PolicyScript] {
        try await perform(owner: owner) { context in try context.store.read { try $0.scripts.all() } }
    }

    /// A habit's rule revisions, numbered from 1.
    public func revisions(owner: String, habit: HabitReference) async throws -> [HabitRevision] {
        try await perform(owner: owner) { try FindHabit(context: $0)(habit).revisions }
    }

    /// `EditHabit`: a new goal or policy is a revision effective from `changes.rulesFrom`.
    public func edit(owner: String, habit: HabitReference, changes: HabitChanges) async throws -> Habit {
        try await perform(owner: owner) { try EditHabit(context: $0)(habit, changes: changes) }
    }

    /// `UpgradePolicy`: moves every active habit using `name` onto its current script.
    public func upgradePolicy(owner: String, name: String, from: RevisionStart = .today) async throws -> PolicyUpgrade {
        try await perform(owner: owner) { try UpgradePolicy(context: $0)(name, from: from) }
    }

    /// `RollBackRules`: takes back the latest rule change as if it had never been made (or, with
    /// `number`, every revision after it); with `from`, only from that day on.
    public func rollBack(owner: String, habit: HabitReference, to number: Int? = nil, from: LocalDay? = nil) async throws -> Habit {
        try await perform(owner: owner) { try RollBackRules(context: $0)(habit, number.map(RollBackRules.Target.revision) ?? .latestChange, from: from) }
    }

    /// `SimulatePolicy`: the habit's figures as stored and under `policy` for `role`; writes nothing.
    public func simulate(
        owner: String, habit: HabitReference, policy: String, role: PolicyRole,
        parameters: [String: JSONValue]? = nil, from: RevisionStart = .retroactive
    ) async throws -> PolicySimulation {
        try await perform(owner: owner) { try SimulatePolicy(context: $0)(habit, policy: policy, role: role, parameters: parameters, from: from) }
    }
}
