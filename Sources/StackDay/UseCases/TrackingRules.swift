/// The checks shared by every use case that writes something for a day.
enum TrackingRules {
    /// A day can be recorded or skipped when it is not in the future and inside the tracking period.
    static func requireRecordable(_ day: LocalDay, habit: Habit, today: LocalDay) throws(UseCaseError) {
        guard day.isSupported else { throw .dayOutOfRange(day: day) }
        guard day <= today else { throw .futureDay(day: day, today: today) }
        guard day >= habit.startedOn else { throw .beforeStart(day: day, habit: habit.name, startedOn: habit.startedOn) }
        if let archivedOn = habit.archivedOn, day > archivedOn {
            throw .afterArchive(day: day, habit: habit.name, archivedOn: archivedOn)
        }
    }

    /// Throws when adding `adding` thousandths to a day that holds `existing` would pass
    /// `Quantity.maximum`: day totals stay exact and far from overflowing.
    static func requireDayTotal(existing: Int64, adding: Int64, habit: Habit, day: LocalDay) throws(UseCaseError) {
        let limit = Quantity.maximumThousandths
        guard existing <= limit, adding <= limit - existing else {
            throw .dayTotalTooLarge(habit: habit.name, day: day, limit: Quantity.maximum)
        }
    }
}
