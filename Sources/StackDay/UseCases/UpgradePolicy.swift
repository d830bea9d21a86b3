/// Moves every active habit using a policy onto its current script (`InstallPolicy.vetted(named:)`).
public struct UpgradePolicy {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Installs the current script of `name` (the policy folder's file, else what the name resolves
    /// to; vetted like `InstallPolicy`) and gives each active
    /// habit whose latest rules name it (in any role) a revision running it, effective from
    /// `from` (for `.day`, a habit started later takes the new script from its start).
    /// Throws `UseCaseError.policyNotFound`, `PolicyRefusal`, or a policy error for a habit whose
    /// parameters the new script refuses; nothing is written then: the script is checked before
    /// the transaction, and stored in the same one as the revisions.
    public func callAsFunction(_ name: String, from: RevisionStart = .today) throws -> PolicyUpgrade {
        let vetted = try InstallPolicy(context: context).vetted(named: name)
        return try context.store.write { tx in
            let script = try InstallPolicy.store(vetted, in: tx, context: context)
            var upgraded: [Habit] = [], current: [Habit] = []
            for habit in try tx.habits.all() where habit.archivedOn == nil {
                let roles = PolicyRole.habitRoles.filter { habit.latest.choice(for: $0).name == name }
                guard !roles.isEmpty else { continue }
                guard roles.contains(where: { habit.latest.choice(for: $0).sha256 != script.sha256 }) else {
                    current.append(habit)
                    continue
                }
                var rules = habit.latest
                for role in roles { rules = try rules.with(rules.choice(for: role).pinned(to: script.sha256), for: role) }
                // The new script's schema judges the parameters the habit gives, as on any rules written.
                do {
                    try context.checkParameters(roles.map { rules.choice(for: $0) }, in: tx)
                } catch {
                    throw HabitFailure(habit: habit, underlying: error)
                }
                var start = from
                if case .day(let day) = from, day < habit.startedOn { start = .retroactive }
                let day = try start.day(for: habit, today: context.today)
                let revised: Habit
                do {
                    revised = try RuleReviser(context: context).append(rules, from: day, to: habit, in: tx)
                } catch {
                    throw HabitFailure(habit: habit, underlying: error)
                }
                try tx.habits.update(revised)
                upgraded.append(revised)
            }
            return PolicyUpgrade(script: script, upgraded: upgraded, current: current)
        }
    }
}
