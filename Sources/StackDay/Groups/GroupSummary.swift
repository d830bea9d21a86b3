/// A group with its days and figures as of today.
public struct GroupSummary: Sendable {
    public let group: HabitGroup
    /// Today's members that still exist, in the group's order (the revision in force today).
    public let members: [Habit]
    /// The group's days from its start through today, in order (empty before it starts).
    public let days: [HabitEntry]
    /// The members' days today, as the group rule saw them.
    public let todayMembers: [GroupMemberDay]
    public let statistics: HabitStatistics
    /// Loop's score after each judged day, oldest first: what a score chart draws.
    public let scores: [(day: LocalDay, score: Double)]

    public init(group: HabitGroup, members: [Habit], days: [HabitEntry], todayMembers: [GroupMemberDay], statistics: HabitStatistics,
                scores: [(day: LocalDay, score: Double)] = []) {
        self.group = group
        self.members = members
        self.days = days
        self.todayMembers = todayMembers
        self.statistics = statistics
        self.scores = scores
    }

    /// The revision in force on the last day judged (the latest before the group starts).
    public var revision: GroupRevision { days.last.flatMap { group.revision(on: $0.day) } ?? group.latest }

    /// Today's day of the group; nil before it starts.
    public var today: HabitEntry? { days.last }

    /// How many of today's members are done today.
    public var doneToday: Int { todayMembers.filter { $0.state == .completed }.count }
}
