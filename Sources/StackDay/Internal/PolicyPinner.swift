import Foundation

/// Binds rule revisions to stored scripts: every unpinned choice gets the hash of the script its
/// name resolves to now, and that script is stored (once per hash, vetted the first time).
struct PolicyPinner {
    let context: HabitContext

    /// The revision with each unpinned choice pinned; the scripts go into `tx`.
    func pin(_ revision: HabitRevision, in tx: any HabitTransaction) throws -> HabitRevision {
        var pinned = revision
        for role in PolicyRole.allCases {
            let choice = revision.choice(for: role)
            guard choice.sha256 == nil, let script = try context.script(named: choice.name, in: tx) else { continue }
            // A script this store has never held is vetted as `policy install` vets one (it loads in
            // the sandbox and passes its examples) before any rule is bound to it.
            if try tx.scripts.script(sha256: script.sha256) == nil {
                try script.checkIsText()
                try script.checkSize()
                try context.policies.vet(script)
            }
            try tx.scripts.insert(script)
            pinned = try pinned.with(choice.pinned(to: script.sha256), for: role)
        }
        return pinned
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
