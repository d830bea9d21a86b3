/// A habit's figures under its rules and under a proposed policy, side by side.
public struct PolicySimulation: Sendable {
    /// Today's figures under the stored rules.
    public let current: HabitSummary
    /// Today's figures with `revision` appended (its habit is never stored).
    public let proposed: HabitSummary
    /// The revision the simulation added.
    public let revision: HabitRevision

    /// Every outcome day of the real history under the stored rules and under the proposed
    /// ones (empty unless asked for: `SimulatePolicy`'s `days`).
    public let currentDays: [SimulatedDay]
    public let proposedDays: [SimulatedDay]

    public init(current: HabitSummary, proposed: HabitSummary, revision: HabitRevision,
                currentDays: [SimulatedDay] = [], proposedDays: [SimulatedDay] = []) {
        self.current = current
        self.proposed = proposed
        self.revision = revision
        self.currentDays = currentDays
        self.proposedDays = proposedDays
    }

    /// The days whose outcome or current streak differ between the two, in order. A day not due
    /// under both is left out: its streak is only carried over from the day before, which is
    /// listed already.
    public var differingDays: [LocalDay] {
        let proposed = Dictionary(proposedDays.map { ($0.day, $0) }, uniquingKeysWith: { $1 })
        let current = Dictionary(currentDays.map { ($0.day, $0) }, uniquingKeysWith: { $1 })
        return Set(current.keys).union(proposed.keys).sorted().filter { day in
            guard let a = current[day], let b = proposed[day] else { return true }
            return a.state != b.state || (a.state != .notDue && a.streak.current != b.streak.current)
        }
    }
}
