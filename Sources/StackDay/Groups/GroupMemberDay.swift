/// One member's day as a group rule sees it (`group(members, params, day)`): the member's name,
/// where it stands, and its figures in its own unit.
public struct GroupMemberDay: Hashable, Sendable {
    public let name: String
    /// The member's state that day; a day after today is `upcoming` and never reaches a rule.
    public let state: EntryState
    public let progress: Double
    public let total: Double
    public let goal: Double
    public let unit: String

    public init(name: String, state: EntryState, progress: Double, total: Double, goal: Double, unit: String) {
        self.name = name
        self.state = state
        self.progress = progress
        self.total = total
        self.goal = goal
        self.unit = unit
    }

    /// Whether the member's schedule asks for the day.
    public var isDue: Bool { state != .notDue && state != .upcoming }
}
