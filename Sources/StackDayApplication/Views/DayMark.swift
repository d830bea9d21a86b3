import StackDay

/// How a calendar shows one tracked day: met, partly done, missed, skipped, not due, pending
/// (today, not yet reached) or future. The pages print it as `data-state`, each with a mark of
/// its own, so no state is told by colour alone.
public enum DayMark: String, Sendable, CaseIterable {
    case met, partial, missed, skipped, notDue, pending, future

    public init(_ entry: HabitEntry) {
        switch entry.state {
        case .upcoming: self = .future
        case .completed: self = .met
        case .skipped: self = .skipped
        case .missed: self = entry.progress > 0 ? .partial : .missed
        case .pending: self = entry.progress > 0 ? .partial : .pending
        case .notDue: self = entry.progress > 0 && entry.progress < 1 ? .partial : .notDue
        }
    }

    /// The mark drawn in the cell beside the day's number.
    public var symbol: String {
        switch self {
        case .met: "●"
        case .partial: "◐"
        case .missed: "✕"
        case .skipped: "–"
        case .notDue: "·"
        case .pending: "○"
        case .future: ""
        }
    }
}
