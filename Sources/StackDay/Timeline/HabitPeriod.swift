/// One period of a quota habit (a week, a month, or the rolling window ending on a day).
public struct HabitPeriod: Hashable, Sendable {
    /// The first and last tracked day of the period.
    public let days: LocalDayRange
    /// Completed days in the period.
    public let count: Int
    public let times: Int
    /// `completed` when met, `missed` when over and not met, `pending` while open,
    /// `skipped` when every day was excused, `notDue` for a rolling window not yet full.
    public let state: EntryState

    public init(days: LocalDayRange, count: Int, times: Int, state: EntryState) {
        self.days = days
        self.count = count
        self.times = times
        self.state = state
    }

    /// The day the period closes: for a week or month still open, its natural last day (or the
    /// habit's archive day, when that comes first), though the days tracked so far end today; for
    /// a rolling window, or a period already judged, its last tracked day.
    public func closes(under quota: PeriodQuota, archivedOn: LocalDay?) -> LocalDay {
        guard state == .pending else { return days.last }
        let natural: LocalDay
        switch quota.period {
        case .week: natural = days.first.startOfWeek(quota.weekStart).adding(days: 6)
        case .month: natural = days.first.startOfMonth.adding(days: days.first.daysInMonth - 1)
        case .rolling: return days.last
        }
        return max(days.last, min(natural, archivedOn ?? natural))
    }

    /// The period as one outcome for a streak rule: its last day, its share of the quota.
    public var entry: HabitEntry {
        HabitEntry(day: days.last, isDue: true, total: Double(count), progress: min(Double(count) / Double(times), 1), state: state)
    }
}
