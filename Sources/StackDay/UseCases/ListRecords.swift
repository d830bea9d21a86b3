/// A habit's records over a range of days, in day order, then in the order they were recorded.
public struct ListRecords {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Throws `UseCaseError.habitNotFound`, or `.spanTooLong` for a range over `ReadWindow`'s span.
    public func callAsFunction(_ reference: HabitReference, in days: LocalDayRange) throws -> (habit: Habit, records: [Completion]) {
        try ReadWindow.check(days)
        return try context.store.read { tx in
            let habit = try context.habit(reference, in: tx)
            let records = try tx.completions.completions(habitID: habit.id, in: days)
                .sorted { ($0.completedOn, $0.recordedAt) < ($1.completedOn, $1.recordedAt) }
            return (habit, records)
        }
    }
}
