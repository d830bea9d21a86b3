import StackDay

/// A Lua policy serving the group role: one protected call for a range of days.
public struct LuaGroupPolicy: GroupPolicy {
    public let binding: PolicyBinding

    public init(binding: PolicyBinding) {
        self.binding = binding
    }

    public func progress(days: LocalDayRange, members: [[GroupMemberDay]]) throws -> [Double] {
        try binding.group(first: days.first, members: members)
    }
}
