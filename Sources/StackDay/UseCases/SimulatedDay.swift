/// One outcome day of a simulation, under one set of rules: what it was, the streak after it,
/// and the habit's score after it.
public struct SimulatedDay: Sendable, Equatable {
    public let day: LocalDay
    public let state: EntryState
    public let streak: HabitStreak
    public let score: Double

    public init(day: LocalDay, state: EntryState, streak: HabitStreak, score: Double) {
        self.day = day
        self.state = state
        self.streak = streak
        self.score = score
    }
}
