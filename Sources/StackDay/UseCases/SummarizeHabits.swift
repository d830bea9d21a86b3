/// Statistics for every habit (or one), in creation order, as of today.
public struct SummarizeHabits {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// One result per habit: its summary, or the `HabitFailure` of a policy that failed for it.
    ///
    /// With `habitName`, only that habit (throws `UseCaseError.habitNotFound`); with
    /// `includeArchived` false, archived habits are left out. Throws store errors.
    public func callAsFunction(habitName: String?, includeArchived: Bool = true) throws -> [Result<HabitSummary, HabitFailure>] {
        try callAsFunction(habitName.map(HabitReference.name), includeArchived: includeArchived)
    }

    /// With `reference`, only that habit (throws `UseCaseError.habitNotFound` or `.habitIDNotFound`).
    public func callAsFunction(_ reference: HabitReference? = nil, includeArchived: Bool = true) throws -> [Result<HabitSummary, HabitFailure>] {
        try context.store.read { tx in
            try summaries(of: try (reference.map { [try context.habit($0, in: tx)] } ?? tx.habits.all()).filter { includeArchived || $0.archivedOn == nil },
                          in: tx)
        }
    }

    /// The summaries of `habits`, in their order: the figures the cache keeps for today, the
    /// others evaluated together.
    func summaries(of habits: [Habit], in tx: any HabitTransaction) throws -> [Result<HabitSummary, HabitFailure>] {
        let today = context.today
        let loader = TimelineLoader(context: context)
        let cached = try loader.cachedSummaries(habits, today: today, in: tx)
        var computed = try loader.evaluateEach(habits.filter { cached[$0.id] == nil }, today: today, in: tx) {
            try HabitSummary(habit: $0, evaluated: $1)
        }.makeIterator()
        return habits.compactMap { habit in cached[habit.id].map { .success($0) } ?? computed.next() }
    }
}
