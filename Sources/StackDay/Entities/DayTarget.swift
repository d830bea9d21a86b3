/// What a day's amount is held against under a rule revision: a goal to reach, or a limit not to
/// pass (the built-in `at-most` progress policy, whose goal plays no part). Every surface that
/// shows an amount beside its target, or says a day went over, asks this.
public enum DayTarget: Hashable, Sendable {
    case goal(Double)
    case limit(Double)

    public init(_ revision: HabitRevision) {
        if let limit = revision.progress.atMostLimit { self = .limit(limit) } else { self = .goal(revision.goal) }
    }

    /// The goal's or the limit's amount.
    public var amount: Double {
        switch self {
        case .goal(let amount), .limit(let amount): amount
        }
    }

    /// The limit, or nil for a goal.
    public var limit: Double? {
        if case .limit(let limit) = self { limit } else { nil }
    }

    /// Whether `total` passes the limit (never, for a goal).
    public func isOver(_ total: Double) -> Bool {
        limit.map { total > $0 } ?? false
    }

    /// Whether `entry` is a day that went over its limit: not met (today's, still pending, as
    /// well as a past one) with a total past the limit. Surfaces say so in place of its state.
    public func wentOver(_ entry: HabitEntry) -> Bool {
        isOver(entry.total) && (entry.state == .pending || entry.state == .missed)
    }
}
