/// The first day a new rule revision judges.
public enum RevisionStart: Hashable, Sendable {
    /// Today: days already lived keep their results.
    case today
    /// A chosen day, between the habit's start and its archive day.
    case day(LocalDay)
    /// The habit's start day: the whole history is judged again.
    case retroactive

    /// The day for `habit`; throws `UseCaseError.beforeStart` or `.afterArchive` outside its tracking period.
    func day(for habit: Habit, today: LocalDay) throws -> LocalDay {
        let day: LocalDay
        switch self {
        case .today: day = max(today, habit.startedOn)
        case .day(let chosen): day = chosen
        case .retroactive: day = habit.startedOn
        }
        guard day.isSupported else { throw UseCaseError.dayOutOfRange(day: day) }
        if day < habit.startedOn { throw UseCaseError.beforeStart(day: day, habit: habit.name, startedOn: habit.startedOn) }
        if let archivedOn = habit.archivedOn, day > archivedOn {
            throw UseCaseError.afterArchive(day: day, habit: habit.name, archivedOn: archivedOn)
        }
        return day
    }
}
