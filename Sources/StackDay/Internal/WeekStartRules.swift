import Foundation

/// A user's week start in habits' rules. A schedule that counts weeks (`times-per-week`) names the
/// day its weeks begin on as its `weekStart` parameter, so the weeks a habit was judged by stay in
/// its rule history: a new quota habit takes the user's week start, and a change of the user's
/// week start writes each such habit a revision from the first day of a week in the new start.
struct WeekStartRules {
    let context: HabitContext

    /// The parameter a schedule names its week start by.
    static let parameter = "weekStart"

    /// A schedule being written without a week start of its own, starting its weeks on the user's.
    func defaulted(_ schedule: PolicyChoice, of habit: Habit, in tx: any HabitTransaction) throws -> PolicyChoice {
        let start = context.boundary.weekStart
        guard start != .monday, schedule.parameters[Self.parameter] == nil else { return schedule }
        return try self.schedule(schedule, of: habit, startingWeeksOn: start, in: tx) ?? schedule
    }

    /// `schedule` starting its weeks on `start`, when it counts weeks that begin elsewhere and its
    /// policy takes the parameter; nil when there is nothing to change (a schedule of set days, a
    /// script whose weeks are its own).
    func schedule(_ schedule: PolicyChoice, of habit: Habit, startingWeeksOn start: WeekStart, in tx: any HabitTransaction) throws -> PolicyChoice? {
        let revision = try habit.latest.with(schedule: schedule)
        guard let quota = try context.policies.policies(for: habit, revision: revision, scripts: tx.scripts).schedule.quota(for: habit),
              quota.period == .week, quota.weekStart != start else { return nil }
        var parameters = schedule.parameters
        parameters[Self.parameter] = .string(start.rawValue)
        let moved = PolicyChoice(name: schedule.name, parameters: parameters, sha256: schedule.sha256)
        do { try context.checkParameters([moved], in: tx) } catch is PolicyParameterError { return nil }
        return moved
    }

    /// The first day judged by weeks beginning on `start`: today when a week begins today, else
    /// the next day one does. The week of the old start that this day cuts, and the new week's
    /// days before it, are each asked their share (`QuotaTimeline`).
    func firstDay(startingWeeksOn start: WeekStart) -> LocalDay {
        let today = context.today
        let week = today.startOfWeek(start)
        return week == today ? today : week.adding(days: 7)
    }

    /// Every active habit of the transaction's owner whose schedule counts weeks that begin
    /// elsewhere, revised to begin them on `start` from `firstDay`; the habits revised.
    func apply(_ start: WeekStart, in tx: any HabitTransaction) throws -> [Habit] {
        let from = firstDay(startingWeeksOn: start)
        var revised: [Habit] = []
        for habit in try tx.habits.all() where habit.archivedOn.map({ $0 >= from }) ?? true && habit.startedOn <= from {
            let latest = habit.latest
            guard let moved = try schedule(latest.schedule, of: habit, startingWeeksOn: start, in: tx) else { continue }
            let rules = try latest.with(schedule: moved)
            let updated = try RuleReviser(context: context).append(rules, from: from, to: habit, in: tx)
            try tx.habits.update(updated)
            revised.append(updated)
        }
        return revised
    }
}
