/// Takes back rule changes: writes revisions that bring back the rules in force before them.
public struct RollBackRules {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// What to take back.
    public enum Target: Hashable, Sendable {
        /// The latest rule change (one edit, or everything one rollback wrote), as if it had never
        /// been made: the rules in force before it judge again from its own first day, so every
        /// figure returns to what it was before it.
        case latestChange
        /// Every revision after `number`: revision `number`'s rules judge every day the later
        /// revisions judged.
        case revision(Int)
    }

    /// Appends the revisions that take `target` back, each marked with the first revision it
    /// takes back (`HabitRevision.takesBack`). With `from`, the rules come back from that day
    /// instead, and the days before it keep the results they have now. Throws
    /// `UseCaseError.nothingToRollBack`, `.revisionNotFound`, or a day outside the tracking period.
    @discardableResult
    public func callAsFunction(_ reference: HabitReference, _ target: Target = .latestChange, from: LocalDay? = nil) throws -> Habit {
        try context.store.write { tx in
            let habit = try context.habit(reference, in: tx)
            let latest = habit.latest.number
            let brought: [(revision: HabitRevision, from: LocalDay)]
            let first: Int
            switch target {
            case .latestChange:
                guard latest > 1 else { throw UseCaseError.nothingToRollBack(habit: habit.name) }
                first = habit.latestChange.lowerBound
                let changed = habit.revisions[(first - 1)...].map(\.effectiveFrom).min() ?? habit.startedOn
                let start = try from.map { try RevisionStart.day($0).day(for: habit, today: context.today) } ?? max(changed, habit.startedOn)
                brought = habit.rules(before: first, from: start)
            case .revision(let number):
                guard (1...latest).contains(number) else { throw UseCaseError.revisionNotFound(habit: habit.name, number: number, latest: latest) }
                let given = try from.map { try RevisionStart.day($0).day(for: habit, today: context.today) }
                guard number < latest else { throw UseCaseError.nothingToRollBack(habit: habit.name) }
                first = number + 1
                let judged = habit.revisions[number...].map(\.effectiveFrom).min() ?? habit.startedOn
                let start = given ?? max(judged, habit.startedOn)
                brought = [(habit.revisions[number - 1], start)]
            }
            var revised = habit
            for (rules, day) in brought {
                revised = try revised.appending(rules, from: day, at: context.clock.now, takesBack: first)
            }
            _ = try context.policies.policies(for: revised, revision: revised.latest, scripts: tx.scripts)
            try tx.habits.update(revised)
            return revised
        }
    }
}
