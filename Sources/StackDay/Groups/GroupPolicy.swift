/// Decides how far a group's day is toward done from its members' days: the group role.
public protocol GroupPolicy {
    /// The group's progress on each day of `days`, 0…1 where 1 means done; `members[i]` are the
    /// members' days on the i-th day, in the group's order.
    func progress(days: LocalDayRange, members: [[GroupMemberDay]]) throws -> [Double]
}
