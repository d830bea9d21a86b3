/// A habit's figures under its rules and under a proposed policy, side by side.
public struct PolicySimulation: Sendable {
    /// Today's figures under the stored rules.
    public let current: HabitSummary
    /// Today's figures with `revision` appended (its habit is never stored).
    public let proposed: HabitSummary
    /// The revision the simulation added.
    public let revision: HabitRevision

    public init(current: HabitSummary, proposed: HabitSummary, revision: HabitRevision) {
        self.current = current
        self.proposed = proposed
        self.revision = revision
    }
}
