/// One habit, day by day over its tracking period: the one source every derived value reads.
public struct HabitTimeline: Sendable {
    public let habit: Habit
    public let today: LocalDay
    /// `startedOn` … the earlier of `archivedOn` and the last day asked for (at least today).
    public let period: LocalDayRange
    /// One entry per day of `period`, in day order.
    public let entries: [HabitEntry]
    /// The period split by the rule revision judging each part, in day order.
    public let segments: [TimelineSegment]

    public init(habit: Habit, today: LocalDay, period: LocalDayRange, entries: [HabitEntry], segments: [TimelineSegment]) {
        self.habit = habit
        self.today = today
        self.period = period
        self.entries = entries
        self.segments = segments
    }

    /// The segment whose days hold `day`, or nil outside the tracking period.
    public func segment(on day: LocalDay) -> TimelineSegment? {
        segments.first { $0.days.contains(day) }
    }

    /// The quota in force today (on the last tracked day, for an archived habit); nil for a
    /// day-by-day schedule.
    public var quota: PeriodQuota? {
        period.isEmpty ? nil : segment(on: min(max(today, period.first), period.last))?.quota
    }

    /// The quota period holding today (the window ending today, for a rolling quota); nil
    /// without a quota or when today is outside the tracking period.
    public var openPeriod: HabitPeriod? {
        guard period.contains(today), quota != nil else { return nil }
        return segment(on: today)?.periods.last { $0.days.contains(today) }
    }

    /// Every quota period up to today, in order.
    public var periods: [HabitPeriod] { segments.flatMap(\.periods) }

    /// What streaks and rates count in `segment`: its periods under a quota, else its elapsed days.
    public func outcomes(of segment: TimelineSegment) -> ArraySlice<HabitEntry> {
        if segment.quota != nil { return ArraySlice(segment.periods.map(\.entry)) }
        guard segment.days.first <= today else { return entries[0..<0] }
        return entries(in: LocalDayRange(segment.days.first, min(today, segment.days.last)))
    }

    /// The outcomes of every segment, in order.
    public var outcomes: ArraySlice<HabitEntry> {
        segments.count == 1 ? outcomes(of: segments[0]) : ArraySlice(segments.flatMap { outcomes(of: $0) })
    }

    /// The entry for `day`, or nil outside the tracking period.
    public func entry(on day: LocalDay) -> HabitEntry? {
        guard period.contains(day) else { return nil }
        return entries[period.first.days(to: day)]
    }

    /// The week or month quota period holding `day`, when the day's segment counts by one (a
    /// rolling window has one period per day, so a day belongs to no single one).
    public func period(on day: LocalDay) -> HabitPeriod? {
        guard let segment = segment(on: day), let quota = segment.quota else { return nil }
        if case .rolling = quota.period { return nil }
        return segment.periods.first { $0.days.contains(day) }
    }

    /// The entry for `day` as a calendar draws it: under a week or month quota a day with nothing
    /// recorded carries its period's outcome (missed in a week that missed its quota, still to do
    /// in the open one, not due in a week already met), so a missed week is drawn as missed and
    /// not as days that were never due. A day with a record keeps its own.
    public func calendarEntry(on day: LocalDay) -> HabitEntry? {
        guard let entry = entry(on: day) else { return nil }
        guard entry.total == 0, entry.state == .notDue || entry.state == .pending, let period = period(on: day) else { return entry }
        let state: EntryState
        switch period.state {
        case .missed: state = .missed
        case .pending: state = day <= today ? .pending : .upcoming
        case .completed: state = .notDue
        case .skipped, .notDue, .upcoming: return entry
        }
        return HabitEntry(day: day, isDue: entry.isDue, total: 0, progress: 0, state: state)
    }

    /// The entries up to and including today.
    public var elapsed: ArraySlice<HabitEntry> {
        guard !period.isEmpty, today >= period.first else { return entries[0..<0] }
        let end = min(entries.count, period.first.days(to: today) + 1)
        return entries[0..<end]
    }

    /// The entries whose day falls in `days`.
    public func entries(in days: LocalDayRange) -> ArraySlice<HabitEntry> {
        let overlap = days.clamped(to: period)
        guard !overlap.isEmpty else { return entries[0..<0] }
        let start = period.first.days(to: overlap.first)
        return entries[start..<(start + overlap.count)]
    }
}

extension HabitTimeline {
    /// The days a calendar shows through `last`: from `first` when given, else the 26 weeks up to
    /// `last`, not before the habit's start.
    /// Throws `UseCaseError.spanTooLong` for a range longer than `ReadWindow.maximumSpan`.
    public func calendarDays(from first: LocalDay?, through last: LocalDay) throws -> LocalDayRange {
        let range = LocalDayRange(first ?? max(habit.startedOn, last.adding(days: -7 * 26 + 1)), last)
        try ReadWindow.check(range)
        return range
    }
}
