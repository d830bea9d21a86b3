/// One habit's timeline, for calendars and exports.
public struct LoadTimeline {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// The timeline from `startedOn` through the later of today and `through` (clipped to the archive day).
    public func callAsFunction(habitName: String, through: LocalDay? = nil) throws -> HabitTimeline {
        let today = context.today
        return try context.store.read {
            try TimelineLoader(context: context).timeline(for: context.habit(named: habitName), today: today, through: through).0
        }
    }

    /// Every habit's timeline up to today, in creation order: a failed policy fails only its habit.
    /// Throws store errors.
    public func all() throws -> [Result<HabitTimeline, HabitFailure>] {
        let today = context.today
        let loader = TimelineLoader(context: context)
        return try context.store.read {
            try context.store.habits.all().map { habit in try loader.evaluate(habit, today: today) { timeline, _ in timeline } }
        }
    }
}
