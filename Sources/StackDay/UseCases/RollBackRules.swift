/// Writes a revision that brings back the rules of an earlier one.
public struct RollBackRules {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Appends the rules of revision `number` (default: the one before the latest), effective
    /// from `from`. Throws `UseCaseError.revisionNotFound`, `.nothingToRollBack`, or a day
    /// outside the tracking period.
    @discardableResult
    public func callAsFunction(_ reference: HabitReference, to number: Int? = nil, from: RevisionStart = .today) throws -> Habit {
        try context.store.write { tx in
            let habit = try context.habit(reference, in: tx)
            let latest = habit.latest.number
            guard number != nil || latest > 1 else { throw UseCaseError.nothingToRollBack(habit: habit.name) }
            let target = number ?? latest - 1
            guard (1...latest).contains(target) else {
                throw UseCaseError.revisionNotFound(habit: habit.name, number: target, latest: latest)
            }
            let day = try from.day(for: habit, today: context.today)
            let rules = habit.revisions[target - 1]
            // The old rules are written again as they were, even when they equal the latest:
            // a rollback is always on record.
            let revised = try habit.appending(rules, from: day, at: context.clock.now)
            _ = try context.policies.policies(for: revised, revision: revised.latest, scripts: tx.scripts)
            try tx.habits.update(revised)
            return revised
        }
    }
}
