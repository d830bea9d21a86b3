import Foundation

/// Appends a rule revision to a habit: pins its policies, checks them, and leaves the habit as
/// it is when the rules already judge every day from `from` on.
struct RuleReviser {
    let context: HabitContext

    func append(_ rules: HabitRevision, from: LocalDay, to habit: Habit, in tx: any HabitTransaction) throws -> Habit {
        let pinner = PolicyPinner(context: context)
        let pinned = try pinner.pin(rules, in: tx)
        let latest = habit.latest
        if pinned.hasSameRules(as: latest), latest.number == 1 || from >= latest.effectiveFrom { return habit }
        let revised = try habit.appending(pinned, from: from, at: context.clock.now)
        _ = try context.policies.policies(for: revised, revision: revised.latest, scripts: tx.scripts)
        return revised
    }
}
