/// A habit field a replica held that a merge replaced with a later change made elsewhere: which
/// field, the value that lost and the device that had written it, the value kept and its device.
public struct SyncOverride: Sendable, Equatable {
    /// The habit's id, as its sync key.
    public let habit: String
    /// Never `updatedAt`.
    public let field: SyncHabitField
    public let lost: JSONValue
    /// The device whose change lost (empty for a value the habit had since it was made).
    public let lostBy: String
    public let kept: JSONValue
    public let keptBy: String

    public init(habit: String, field: SyncHabitField, lost: JSONValue, lostBy: String, kept: JSONValue, keptBy: String) {
        self.habit = habit
        self.field = field
        self.lost = lost
        self.lostBy = lostBy
        self.kept = kept
        self.keptBy = keptBy
    }
}
