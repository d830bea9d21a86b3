import Foundation

/// Changes a habit's name, unit or start day, and its rules by writing a new revision: all in one
/// transaction.
public struct EditHabit {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Throws for invalid fields or policies, a new start day in the future, or a `rulesFrom`
    /// day outside the tracking period. A policy named without a pin is pinned to the script
    /// its name resolves to now. Rules equal to those already in force from that day on write
    /// no revision.
    @discardableResult
    public func callAsFunction(_ reference: HabitReference, changes: HabitChanges) throws -> Habit {
        let today = context.today
        if let startedOn = changes.startedOn, startedOn > today { throw UseCaseError.futureDay(day: startedOn, today: today) }
        return try context.store.write { tx in
            let stored = try context.habit(reference, in: tx)
            var habit = try stored.with(startedOn: changes.startedOn, unit: changes.unit, updatedAt: context.clock.now)
            if let name = changes.name {
                habit = try habit.with(name: name, updatedAt: context.clock.now)
                try context.requireUniqueName(habit.name, except: habit.id, in: tx)
            }
            if changes.changesRules {
                let from = try changes.rulesFrom.day(for: habit, today: today)
                let rules = try habit.latest.with(goal: changes.goal, schedule: changes.schedule, progress: changes.progress, streak: changes.streak)
                habit = try RuleReviser(context: context).append(rules, from: from, to: habit, in: tx)
            }
            try tx.habits.update(habit)
            return habit
        }
    }

    /// The same, naming the habit by name.
    @discardableResult
    public func callAsFunction(habitName: String, changes: HabitChanges) throws -> Habit {
        try callAsFunction(.name(habitName), changes: changes)
    }
}
