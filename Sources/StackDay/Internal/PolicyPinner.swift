import Foundation

/// Binds rule revisions to stored scripts: every unpinned choice gets the hash of the script its
/// name resolves to now, and that script is stored (once per hash, vetted the first time).
struct PolicyPinner {
    let context: HabitContext

    /// The revision with each unpinned choice pinned; the scripts go into `tx`.
    func pin(_ revision: HabitRevision, in tx: any HabitTransaction) throws -> HabitRevision {
        var pinned = revision
        for role in PolicyRole.habitRoles {
            pinned = try pinned.with(try pin(revision.choice(for: role), in: tx), for: role)
        }
        return pinned
    }

    /// `choice` pinned to the script its name resolves to (`PolicyDirectory`), stored in `tx`; as
    /// it was when it is pinned already. Throws `UseCaseError.policyNotFound` for a name nothing
    /// has, when policies are scripts; with built-in Swift policies only, a choice stays unpinned.
    func pin(_ choice: PolicyChoice, in tx: any HabitTransaction) throws -> PolicyChoice {
        guard choice.sha256 == nil else { return choice }
        guard context.policies.runsScripts else { return choice }
        guard let script = try context.directory.find(choice.name, in: tx)?.script else {
            // A rule naming what nothing has is a rule that cannot be: refused as a policy that
            // fails to load is (`policy_failed`).
            let suggestion = DidYouMean.suggestion(for: choice.name, among: try context.directory.names(in: tx))
            throw UnknownPolicy(name: choice.name, suggestion: suggestion)
        }
        // A script this store has never held is vetted as `policy install` vets one (it loads in
        // the sandbox and passes its examples) before any rule is bound to it.
        if try tx.scripts.script(sha256: script.sha256) == nil {
            try script.checkIsText()
            try script.checkSize()
            try context.policies.vet(script)
            try tx.scripts.insert(PolicyScript(name: script.name, source: script.source, installedAt: context.clock.now))
        }
        return choice.pinned(to: script.sha256)
    }

    /// The habit with every revision pinned.
    func pin(_ habit: Habit, in tx: any HabitTransaction) throws -> Habit {
        let revisions = try habit.revisions.map { try pin($0, in: tx) }
        guard revisions != habit.revisions else { return habit }
        return try habit.replacing(revisions: revisions)
    }

    /// Resolves every revision's policies (binding each to its parameters): throws what a
    /// habit's rules would fail with, before they are stored.
    func validate(_ habit: Habit, in tx: any HabitTransaction) throws {
        for revision in habit.revisions {
            _ = try context.policies.policies(for: habit, revision: revision, scripts: tx.scripts)
        }
    }
}
