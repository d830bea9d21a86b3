import Foundation
import StackDay
import StackDayExchange

/// A user's habits as an iCalendar feed (RFC 5545), what `GET /v1/feeds/{token}.ics` answers and
/// `stackday export --format ics` writes: for each revision of each active habit that still
/// judges days, one all-day event whose `RRULE` states its schedule where a rule says it exactly
/// (`ScheduleRecurrence`, checked day by day against the habit's own due days through a year
/// ahead), otherwise its next `datedDays` due days as dates. The `SUMMARY` carries the goal
/// (`물 마시기 · 8 cups`); a day already met today is that occurrence again, marked done.
public struct CalendarFeedView {
    public let timelines: [HabitTimeline]
    public let today: LocalDay
    /// The calendar's name in calendar apps.
    public let title: String

    /// Due days listed for a schedule no rule states.
    public static let datedDays = 60

    public init(timelines: [HabitTimeline], today: LocalDay, title: String) {
        self.timelines = timelines
        self.today = today
        self.title = title
    }

    public var text: String {
        var calendar = ICalendarText()
        calendar.line("BEGIN", "VCALENDAR")
        calendar.line("VERSION", "2.0")
        calendar.line("PRODID", "-//StackDay//Habits//EN")
        calendar.line("CALSCALE", "GREGORIAN")
        calendar.line("METHOD", "PUBLISH")
        calendar.text("X-WR-CALNAME", title)
        // Fetched again every hour (RFC 7986 §5.7; X-PUBLISHED-TTL for the apps that read only it).
        calendar.line("REFRESH-INTERVAL;VALUE=DURATION", "PT1H")
        calendar.line("X-PUBLISHED-TTL", "PT1H")
        for timeline in timelines where timeline.habit.archivedOn.map({ $0 >= today }) ?? true {
            for (index, segment) in timeline.segments.enumerated() where segment.days.last >= today {
                let last = index == timeline.segments.count - 1 && timeline.habit.archivedOn == nil
                events(timeline, segment, open: last, into: &calendar)
            }
        }
        calendar.line("END", "VCALENDAR")
        return calendar.text
    }

    /// The event of one revision (and, when today is due and met, today's occurrence marked done).
    private func events(_ timeline: HabitTimeline, _ segment: TimelineSegment, open: Bool, into calendar: inout ICalendarText) {
        let habit = timeline.habit, revision = segment.revision
        let entries = timeline.entries(in: segment.days)
        let due = entries.filter(\.isDue).map(\.day)
        let recurrence = ScheduleRecurrence(revision.schedule, startedOn: habit.startedOn).flatMap { recurrence -> ScheduleRecurrence? in
            // The rule stands only where it gives exactly the habit's days (a user's own script
            // under a built-in's name does not), and a rule with an end of its own only when the
            // revision has none.
            if let isDue = recurrence.isDue, entries.contains(where: { isDue($0.day) != $0.isDue }) { return nil }
            return recurrence.isBounded && !open ? nil : recurrence
        }
        let listed = recurrence == nil ? Array(due.filter { $0 >= today }.prefix(Self.datedDays)) : due
        // A pasted rule starts where the revision does, as the policy counts it (its first day may
        // be years away); that start, when the rule does not take it, is taken out again, since
        // a calendar counts DTSTART as an occurrence whatever the rule says.
        let counted = recurrence?.isDue == nil && recurrence != nil
        guard let first = counted ? segment.days.first : listed.first else { return }
        let startExcluded = counted && !(timeline.entry(on: first)?.isDue ?? false)
        let uid = "\(UUIDText.format(habit.id))-\(revision.number)@stackday"
        let summary = Self.summary(habit, revision)
        func begin(_ start: LocalDay) {
            calendar.line("BEGIN", "VEVENT")
            calendar.line("UID", uid)
            calendar.line("DTSTAMP", Self.stamp(revision.createdAt))
            calendar.line("DTSTART;VALUE=DATE", Self.date(start))
        }
        begin(first)
        if let recurrence {
            calendar.line("RRULE", recurrence.rule + (open || recurrence.isBounded ? "" : ";UNTIL=" + Self.date(segment.days.last)))
            let excluded = (startExcluded ? [first] : []) + recurrence.excluded
            if !excluded.isEmpty { calendar.line("EXDATE;VALUE=DATE", excluded.map(Self.date).joined(separator: ",")) }
            if !recurrence.included.isEmpty { calendar.line("RDATE;VALUE=DATE", recurrence.included.map(Self.date).joined(separator: ",")) }
        } else if listed.count > 1 {
            calendar.line("RDATE;VALUE=DATE", listed.dropFirst().map(Self.date).joined(separator: ","))
        }
        calendar.text("SUMMARY", summary)
        calendar.text("DESCRIPTION", revision.schedule.described())
        calendar.line("TRANSP", "TRANSPARENT")
        // A reminder rings that long after the all-day event's start: at that time of the day,
        // in the zone the calendar shows it in. A day met already is replaced below, without one.
        for reminder in revision.reminders {
            calendar.line("BEGIN", "VALARM")
            calendar.line("ACTION", "DISPLAY")
            calendar.text("DESCRIPTION", summary)
            calendar.line("TRIGGER;RELATED=START", Self.duration(minutes: reminder.minutes))
            calendar.line("END", "VALARM")
        }
        calendar.line("END", "VEVENT")
        // Met today: that occurrence again (RECURRENCE-ID), marked done, for the next fetch to show.
        if segment.days.contains(today), let entry = timeline.entry(on: today), entry.isDue, entry.state == .completed, listed.contains(today) || recurrence != nil {
            begin(today)
            calendar.line("RECURRENCE-ID;VALUE=DATE", Self.date(today))
            calendar.text("SUMMARY", "✓ " + summary)
            calendar.text("DESCRIPTION", "Done today")
            calendar.line("STATUS", "CONFIRMED")
            calendar.line("TRANSP", "TRANSPARENT")
            calendar.line("END", "VEVENT")
        }
    }

    /// The habit's name with its goal, `물 마시기 · 8 cups`, or its limit, `coffee · at most 2
    /// cups`; the name alone for a yes/no habit.
    static func summary(_ habit: Habit, _ revision: HabitRevision) -> String {
        let target = DayTarget(revision)
        guard target != .goal(1) || !habit.unit.isEmpty else { return habit.name }
        let amount = Quantity.describe(target.amount) + (habit.unit.isEmpty ? "" : " " + habit.unit)
        return habit.name + " · " + (target.limit == nil ? amount : "at most " + amount)
    }

    /// `PT21H`, `PT8H30M`, `PT0S` (RFC 5545 §3.3.6).
    static func duration(minutes: Int) -> String {
        guard minutes > 0 else { return "PT0S" }
        return "PT" + (minutes >= 60 ? "\(minutes / 60)H" : "") + (minutes % 60 > 0 ? "\(minutes % 60)M" : "")
    }

    /// `20261011`.
    static func date(_ day: LocalDay) -> String { day.iso.replacingOccurrences(of: "-", with: "") }

    /// `20261011T130000Z`.
    static func stamp(_ instant: Date) -> String {
        let text = InstantText.format(instant)
        return text.prefix(19).filter { $0 != "-" && $0 != ":" } + "Z"
    }
}
