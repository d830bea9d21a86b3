/// The fields `EditHabit` can change; nil leaves a field as it is.
public struct HabitChanges: Sendable {
    public var startedOn: LocalDay?
    public var goal: Double?
    public var unit: String?
    public var schedule: PolicyChoice?
    public var progress: PolicyChoice?
    public var streak: PolicyChoice?

    public init(
        startedOn: LocalDay? = nil, goal: Double? = nil, unit: String? = nil,
        schedule: PolicyChoice? = nil, progress: PolicyChoice? = nil, streak: PolicyChoice? = nil
    ) {
        self.startedOn = startedOn
        self.goal = goal
        self.unit = unit
        self.schedule = schedule
        self.progress = progress
        self.streak = streak
    }
}
