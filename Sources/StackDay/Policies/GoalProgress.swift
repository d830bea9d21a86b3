/// The default progress: `min(total / goal, 1)`.
public struct GoalProgress: ProgressPolicy {
    public init() {}

    public func progress(totals: [Double], days: LocalDayRange, goal: Double) throws -> [Double] {
        totals.map { min($0 / goal, 1) }
    }
}
