import Foundation

/// Changes a habit's name, unit, start day, colour, step or place in the list, and its rules by
/// writing a new revision: all in one transaction.
public struct EditHabit {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Throws for invalid fields or policies, a new start day in the future, or a `rulesFrom`
    /// day outside the tracking period. A policy named without a pin keeps the script the habit
    /// is pinned to when it is the policy the habit already runs for that role (new parameters or
    /// not: only `UpgradePolicy` moves a pin); another policy is pinned to the script its name
    /// resolves to now. Parameters given without a policy are for the policy the role runs. Rules equal to those already in force from that day on write no revision.
    @discardableResult
    public func callAsFunction(_ reference: HabitReference, changes: HabitChanges) throws -> Habit {
        let today = context.today
        if let startedOn = changes.startedOn, startedOn > today { throw UseCaseError.futureDay(day: startedOn, today: today) }
        if let unit = changes.unit { try Habit.checkNewUnit(unit) }
        return try context.store.write { tx in
            let stored = try context.habit(reference, in: tx)
            var habit = try stored.with(startedOn: changes.startedOn, unit: changes.unit, colorTag: changes.colorTag, step: changes.step,
                                        question: changes.question.map { .some($0) }, details: changes.details.map { .some($0) },
                                        updatedAt: context.clock.now)
            if let name = changes.name {
                habit = try habit.with(name: name, updatedAt: context.clock.now)
                try context.requireUniqueName(habit.name, except: habit.id, in: tx)
            }
            if changes.changesRules {
                let from = try changes.rulesFrom.day(for: habit, today: today)
                let latest = habit.latest
                func keepingPin(_ named: PolicyChoice?, _ role: PolicyRole) -> PolicyChoice? {
                    let existing = latest.choice(for: role)
                    let choice = named ?? changes.parameters[role].map { PolicyChoice(name: existing.name, parameters: $0) }
                    guard let choice, choice.sha256 == nil else { return choice }
                    return existing.name == choice.name ? choice.pinned(to: existing.sha256) : choice
                }
                // Named policies are pinned (and their scripts stored) before their parameters are
                // checked against what the scripts declare.
                let pinner = PolicyPinner(context: context)
                let named = try [keepingPin(changes.schedule, .schedule), keepingPin(changes.progress, .progress), keepingPin(changes.streak, .streak)]
                    .map { try $0.map { try pinner.pin($0, in: tx) } }
                try context.checkParameters(named.compactMap { $0 }, in: tx)
                var rules = try latest.with(goal: changes.goal, schedule: named[0], progress: named[1], streak: named[2], reminders: changes.reminders)
                // A new schedule counting weeks begins them on the user's week start.
                if changes.schedule != nil { rules = try rules.with(schedule: try WeekStartRules(context: context).defaulted(rules.schedule, of: habit, in: tx)) }
                habit = try RuleReviser(context: context).append(rules, from: from, to: habit, in: tx)
            }
            try tx.habits.update(habit)
            if let position = changes.position {
                habit = try HabitOrder.move(habit, to: try HabitOrder.index(ofPlace: position), in: tx, at: context.clock.now)
            }
            return habit
        }
    }

    /// The same, naming the habit by name.
    @discardableResult
    public func callAsFunction(habitName: String, changes: HabitChanges) throws -> Habit {
        try callAsFunction(.name(habitName), changes: changes)
    }
}
