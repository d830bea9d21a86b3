/// The part of a habit's timeline one rule revision judges.
public struct TimelineSegment: Sendable {
    public let revision: HabitRevision
    /// The days of the timeline's period under this revision.
    public let days: LocalDayRange
    /// The quota the revision's schedule asks for; nil for a day-by-day schedule.
    public let quota: PeriodQuota?
    /// For a quota, the segment's periods up to today in order (cut at the segment's ends); empty otherwise.
    public let periods: [HabitPeriod]

    public init(revision: HabitRevision, days: LocalDayRange, quota: PeriodQuota? = nil, periods: [HabitPeriod] = []) {
        self.revision = revision
        self.days = days
        self.quota = quota
        self.periods = periods
    }
}
