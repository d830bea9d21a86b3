/// How one day of a week looks in the weekly report.
public enum WeekMark: Hashable, Sendable {
    /// A due day reached.
    case met
    /// A due day not (yet) reached: missed, pending or still to come.
    case unmet
    /// A day not asked for: not due, skipped, or outside the tracking period.
    case rest
}
