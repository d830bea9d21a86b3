/// One habit whose figures could not be computed because one of its policies failed.
///
/// Commands that read several habits report it in that habit's row and go on with the others;
/// store errors are not isolated this way (they fail the whole command).
public struct HabitFailure: Error, Hashable, Sendable, CustomStringConvertible {
    public let habit: Habit
    /// What the policy (or its resolution) threw.
    public let underlying: any Error

    public init(habit: Habit, underlying: any Error) {
        self.habit = habit
        self.underlying = underlying
    }

    /// The underlying error on one line, e.g. `policy broken (…/broken.lua:2): broken on purpose`.
    public var message: String {
        String(describing: underlying).replacingOccurrences(of: "\n", with: " ")
    }

    public var description: String { "'\(habit.name)': \(message)" }

    public static func == (lhs: HabitFailure, rhs: HabitFailure) -> Bool {
        lhs.habit.id == rhs.habit.id && lhs.message == rhs.message
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(habit.id)
        hasher.combine(message)
    }
}
