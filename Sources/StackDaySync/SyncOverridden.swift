import StackDay

/// A change this device made to a habit's field that lost to a later one made elsewhere: the
/// habit (by its name now), the field, the value this device had set and the value kept.
public struct SyncOverridden: Sendable, Equatable {
    public let habit: String
    /// `name`, `started_on`, `archived_on` or `unit`.
    public let field: String
    public let mine: String
    public let kept: String

    public init(habit: String, field: String, mine: String, kept: String) {
        self.habit = habit
        self.field = field
        self.mine = mine
        self.kept = kept
    }

    /// A field's value as shown: its text, or `none` for no value (not archived).
    static func text(_ value: JSONValue) -> String { SyncDecided.text(value) }
}
