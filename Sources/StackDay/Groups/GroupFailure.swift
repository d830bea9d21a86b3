/// One group whose figures could not be computed: its rule, its streak rule or a member's policy
/// failed. Commands that read several groups report it in that group's row and go on.
public struct GroupFailure: Error, Sendable, CustomStringConvertible {
    public let group: HabitGroup
    public let underlying: any Error

    public init(group: HabitGroup, underlying: any Error) {
        self.group = group
        self.underlying = underlying
    }

    /// The underlying error on one line.
    public var message: String {
        String(describing: underlying).replacingOccurrences(of: "\n", with: " ")
    }

    public var description: String { "group '\(group.name)': \(message)" }
}
