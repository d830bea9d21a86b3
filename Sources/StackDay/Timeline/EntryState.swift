/// Where a habit stands on one day.
public enum EntryState: String, Hashable, Sendable, CaseIterable {
    /// A due day whose progress reached 1.
    case completed
    /// Today, due and not reached yet: it does not break a streak.
    case pending
    /// A past due day not reached.
    case missed
    /// A day the schedule does not ask for.
    case notDue
    /// A due day the user excused.
    case skipped
    /// A day after today (in a timeline built past today, e.g. the rest of a week).
    case upcoming
}
