/// The checks shared by every use case that writes something for a day.
enum TrackingRules {
    /// A day can be recorded or skipped when it is not in the future and inside the tracking period.
    static func requireRecordable(_ day: LocalDay, habit: Habit, today: LocalDay) throws(UseCaseError) {
        guard day <= today else { throw .futureDay(day: day, today: today) }
        guard day >= habit.startedOn else { throw .beforeStart(day: day, habit: habit.name, startedOn: habit.startedOn) }
        if let archivedOn = habit.archivedOn, day > archivedOn {
            throw .afterArchive(day: day, habit: habit.name, archivedOn: archivedOn)
        }
    }
}
