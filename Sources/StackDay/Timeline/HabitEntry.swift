/// One habit on one day inside its tracking period.
public struct HabitEntry: Hashable, Sendable {
    public let day: LocalDay
    /// Whether the schedule asks for this day.
    public let isDue: Bool
    /// The sum of the day's completion amounts, in the habit's unit.
    public let total: Double
    /// How far the day is toward done, 0…1, from the progress policy.
    public let progress: Double
    public let state: EntryState

    public init(day: LocalDay, isDue: Bool, total: Double, progress: Double, state: EntryState) {
        self.day = day
        self.isDue = isDue
        self.total = total
        self.progress = progress
        self.state = state
    }

    /// Decides the state from the day's facts (seed 002's rules, plus skips and days not due).
    public static func state(
        day: LocalDay, today: LocalDay, isDue: Bool, isSkipped: Bool, progress: Double
    ) -> EntryState {
        if day > today { return .upcoming }
        if !isDue { return .notDue }
        if progress >= 1 { return .completed }
        if isSkipped { return .skipped }
        return day == today ? .pending : .missed
    }
}
