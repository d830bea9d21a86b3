import StackDay

/// A Lua policy serving the progress role: one protected call per range of days.
public struct LuaProgressPolicy: ProgressPolicy {
    public let binding: PolicyBinding

    public init(binding: PolicyBinding) {
        self.binding = binding
    }

    public func progress(totals: [Double], days: LocalDayRange, goal: Double) throws -> [Double] {
        try binding.progress(totals: totals, days: days)
    }
}
