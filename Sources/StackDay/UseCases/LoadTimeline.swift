/// One habit's timeline, for calendars and exports.
public struct LoadTimeline {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// The timeline from `startedOn` through the later of today and `through` (clipped to the archive day).
    /// Throws `UseCaseError.dayTooFarAhead` for a `through` past `ReadWindow.daysAhead`.
    public func callAsFunction(_ reference: HabitReference, through: LocalDay? = nil) throws -> HabitTimeline {
        let today = context.today
        if let through { try ReadWindow.check(through, today: today) }
        return try context.store.read { tx in
            try TimelineLoader(context: context).evaluate(context.habit(reference, in: tx), today: today, through: through, in: tx) { $0.timeline }.get()
        }
    }

    /// Every habit's timeline up to today (or `through`), in creation order: a failed policy fails
    /// only its habit. Throws store errors, and `UseCaseError.dayTooFarAhead` as above.
    public func all(through: LocalDay? = nil) throws -> [Result<HabitTimeline, HabitFailure>] {
        try timelines(through: through) { tx in try tx.habits.all() }
    }

    /// The named habits' timelines, in the order named: a failed policy fails only its habit.
    /// Throws `UseCaseError.habitNotFound` (or `.habitIDNotFound`) for a reference to no habit, and store errors.
    public func callAsFunction(_ references: [HabitReference], through: LocalDay? = nil) throws -> [Result<HabitTimeline, HabitFailure>] {
        try timelines(through: through) { tx in try references.map { try context.habit($0, in: tx) } }
    }

    private func timelines(through: LocalDay?, _ habits: (any HabitTransaction) throws -> [Habit]) throws -> [Result<HabitTimeline, HabitFailure>] {
        let today = context.today
        if let through { try ReadWindow.check(through, today: today) }
        let loader = TimelineLoader(context: context)
        return try context.store.read { tx in
            try loader.evaluateEach(try habits(tx), today: today, through: through, in: tx) { $1.timeline }
        }
    }

    /// The same, naming the habit by name.
    public func callAsFunction(habitName: String, through: LocalDay? = nil) throws -> HabitTimeline {
        try callAsFunction(.name(habitName), through: through)
    }
}
