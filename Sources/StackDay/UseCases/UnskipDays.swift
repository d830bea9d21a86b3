/// Takes back the skips of a day, or of each day of a range: those days count again.
public struct UnskipDays {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Removes every skip of `days` and returns them, in day order. Throws
    /// `UseCaseError.nothingToUnskip` when none of the days is skipped (nothing is written),
    /// `.rangeTooLong` past `SkipDays.rangeLimit` days.
    @discardableResult
    public func callAsFunction(_ reference: HabitReference, days: LocalDayRange) throws -> [Skip] {
        try SkipDays.check(days)
        return try context.store.write { tx in
            let habit = try context.habit(reference, in: tx)
            let skips = try tx.skips.skips(habitID: habit.id, in: days)
            guard !skips.isEmpty else { throw UseCaseError.nothingToUnskip(habit: habit.name, days: days) }
            for skip in skips { try tx.skips.delete(id: skip.id) }
            return skips
        }
    }
}
