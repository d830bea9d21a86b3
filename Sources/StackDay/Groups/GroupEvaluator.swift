import Foundation

/// Judges a group's days from its members' timelines: each revision's group rule over the days it
/// governs, its streak rule folded over them (carrying the streak where a revision takes over, as
/// a habit's revisions do), and the figures a habit has (rate and Loop's score over the days).
public enum GroupEvaluator {
    /// The group as of `today`. `members` holds the timelines of the members' habits (a habit
    /// no longer held is left out of the days it would have been in); `policies` resolves a
    /// revision's rules. Throws what the rules throw.
    public static func evaluate(
        _ group: HabitGroup, members: [UUID: HabitTimeline], today: LocalDay, policies: (GroupRevision) throws -> GroupPolicies
    ) throws -> GroupSummary {
        var days: [HabitEntry] = []
        var todayMembers: [GroupMemberDay] = []
        var streak: HabitStreak?
        var score = 0.0
        var scores: [(day: LocalDay, score: Double)] = []
        let walker = try Habit(name: group.name, startedOn: group.startedOn, createdAt: group.createdAt)
        for (revision, range) in group.segments(through: today) {
            let rules = try policies(revision)
            let (memberDays, entries) = try judged(revision, days: range, members: members, today: today, rule: rules.rule)
            days += entries
            streak = try rules.streak.streak(over: ArraySlice(entries), habit: walker, carrying: streak)
            score = HabitStatisticsCalculator.foldDaily(ArraySlice(entries), from: score, limit: nil) { scores.append(($0, $1)) }
            if range.last == today { todayMembers = memberDays.last ?? [] }
        }
        let completed = days.filter { $0.state == .completed }.count, missed = days.filter { $0.state == .missed }.count
        let eligible = completed + missed
        let statistics = HabitStatistics(completedDays: completed, eligibleDays: eligible,
                                         completionRate: eligible == 0 ? 0 : Double(completed) / Double(eligible),
                                         streak: streak ?? HabitStreak(current: 0, longest: 0), score: score)
        let revision = group.revision(on: today) ?? group.latest
        return GroupSummary(group: group, members: revision.members.compactMap { members[$0]?.habit }, days: days,
                            todayMembers: todayMembers, statistics: statistics, scores: scores)
    }

    /// The group's streak fold step by step (each revision's streak rule through its per-day
    /// rule, as `ExplainHabit` walks a habit's), keeping the steps whose day is in `range`.
    public static func explain(
        _ group: HabitGroup, members: [UUID: HabitTimeline], today: LocalDay, range: LocalDayRange, policies: (GroupRevision) throws -> GroupPolicies
    ) throws -> GroupExplanation {
        var steps: [GroupExplanation.Step] = []
        var streak: HabitStreak?
        let walker = try Habit(name: group.name, startedOn: group.startedOn, createdAt: group.createdAt)
        for (revision, days) in group.segments(through: today) {
            let rules = try policies(revision)
            let (memberDays, entries) = try judged(revision, days: days, members: members, today: today, rule: rules.rule)
            // Only the steps from the range's first day are kept; the ones before only run.
            let keep = entries.firstIndex { $0.day >= range.first } ?? entries.count
            let folded = try rules.streak.explain(over: ArraySlice(entries), habit: walker, carrying: streak, keepingFrom: keep)
            streak = folded.final
            for (offset, step) in folded.steps.enumerated() where range.contains(entries[keep + offset].day) {
                steps.append(GroupExplanation.Step(entry: entries[keep + offset], revision: revision, members: memberDays[keep + offset], step: step))
            }
        }
        return GroupExplanation(group: group, range: range, streak: streak ?? HabitStreak(current: 0, longest: 0), steps: steps)
    }

    /// One revision's days: its members' days as the rule sees them (members no longer held left
    /// out), and the group's day the rule makes of each.
    static func judged(_ revision: GroupRevision, days: LocalDayRange, members: [UUID: HabitTimeline], today: LocalDay,
                       rule: any GroupPolicy) throws -> (members: [[GroupMemberDay]], entries: [HabitEntry]) {
        let present = revision.members.compactMap { members[$0] }
        let memberDays = days.map { day in present.map { memberDay($0, on: day) } }
        let progress = present.isEmpty ? [Double](repeating: 0, count: days.count) : try rule.progress(days: days, members: memberDays)
        let entries = zip(days, zip(memberDays, progress)).map { day, judged in
            GroupDayState.entry(day: day, today: today, members: judged.0, progress: judged.1)
        }
        return (memberDays, entries)
    }

    /// A member's day as its group sees it: the day as its calendar draws it (a quota habit's day
    /// carries its period's outcome), with the goal of the revision judging it; not due outside
    /// its tracking period.
    static func memberDay(_ timeline: HabitTimeline, on day: LocalDay) -> GroupMemberDay {
        let habit = timeline.habit
        let goal = habit.revision(on: day).goal
        guard let entry = timeline.calendarEntry(on: day) else {
            return GroupMemberDay(name: habit.name, state: day > timeline.today ? .upcoming : .notDue, progress: 0, total: 0, goal: goal, unit: habit.unit)
        }
        return GroupMemberDay(name: habit.name, state: entry.state, progress: entry.progress, total: entry.total, goal: goal, unit: habit.unit)
    }
}
