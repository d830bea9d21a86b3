import StackDay

/// A Lua policy serving the progress role: one protected call per range of days.
public struct LuaProgressPolicy: ProgressPolicy, RemindingPolicy {
    public let binding: PolicyBinding

    public init(binding: PolicyBinding) {
        self.binding = binding
    }

    public func progress(totals: [Double], days: LocalDayRange, goal: Double) throws -> [Double] {
        try binding.progress(totals: totals, days: days)
    }

    public func remind(day: LocalDay, progress: Double) throws -> Bool? {
        try binding.remind(day: day, progress: progress)
    }
}
