import StackDay

/// A record or skip this device pushed that the server did not keep, and why (`code`, e.g.
/// `habit_deleted`): the habit (by name, as this device knew it) and the day.
public struct SyncRefused: Sendable, Equatable {
    /// `completion` (a record) or `skip`; any kind the server names.
    public let kind: String
    public let habit: String
    public let day: String?
    public let code: String

    public init(kind: String, habit: String, day: String?, code: String) {
        self.kind = kind
        self.habit = habit
        self.day = day
        self.code = code
    }
}
