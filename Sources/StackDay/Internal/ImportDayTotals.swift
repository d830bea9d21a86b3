import Foundation

/// Each habit-day's total as an import adds to it, checked against `Quantity.maximum`. The
/// stored totals are read once per habit, over the span of days the archive touches.
struct ImportDayTotals {
    var totals: [UUID: [LocalDay: Int64]] = [:]

    init(in tx: any HabitTransaction, completions: [Completion]) throws {
        var spans: [UUID: LocalDayRange] = [:]
        for completion in completions {
            let day = completion.completedOn
            let span = spans[completion.habitID]
            spans[completion.habitID] = LocalDayRange(min(span?.first ?? day, day), max(span?.last ?? day, day))
        }
        for (habitID, span) in spans {
            var days: [LocalDay: Int64] = [:]
            for (day, amount) in try tx.completions.dailyTotals(habitID: habitID, in: span) { days[day, default: 0] += amount }
            totals[habitID] = days
        }
    }

    mutating func add(_ completion: Completion, habit: Habit) throws {
        let day = completion.completedOn
        let existing = totals[habit.id]?[day] ?? 0
        try TrackingRules.requireDayTotal(existing: existing, adding: completion.amountThousandths, habit: habit, day: day)
        totals[habit.id, default: [:]][day] = existing + completion.amountThousandths
    }
}
