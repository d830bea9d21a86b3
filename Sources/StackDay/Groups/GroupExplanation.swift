/// A group's streak fold step by step over a range of days (`group explain`): each day's members
/// as the group rule saw them, the group's day it made, and the streak rule's step.
public struct GroupExplanation: Sendable {
    /// One day of the fold.
    public struct Step: Sendable {
        public let entry: HabitEntry
        /// The revision whose rules judged the day.
        public let revision: GroupRevision
        public let members: [GroupMemberDay]
        public let step: StreakStep
    }

    public let group: HabitGroup
    public let range: LocalDayRange
    /// The streak after the whole fold (today's, as `stats` gives it).
    public let streak: HabitStreak
    public let steps: [Step]
}
