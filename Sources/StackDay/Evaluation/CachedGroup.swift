import Foundation

/// A group's days and figures as of one day, kept so that reading the group again builds none of
/// its members' timelines and asks its rules nothing.
///
/// A row holds for exactly what it was computed from, named by `key`: the group's revisions, the
/// day, the engine, and each member's change counter (which the store's triggers move on every
/// write to the member's completions, skips, rules or row). A write to the group itself deletes
/// the row. As for `CachedEvaluation`, every figure read through it equals the figure computed
/// without it; a row that fails a check is ignored and computed again.
public struct CachedGroup: Hashable, Sendable {
    /// Bumped whenever the layout or meaning of a row changes.
    public static let format = 1

    public let groupID: UUID
    /// The policy resolver's `evaluationKey`.
    public let evaluator: String
    /// `CachedGroup.key(of:today:members:)` of what the figures were computed from.
    public let key: String
    /// The group's days from its start through the day it was read, in order.
    public let days: [HabitEntry]
    /// Loop's score after each of `days`.
    public let scores: [Double]
    /// The members' days on the last day, as the group rule saw them.
    public let todayMembers: [GroupMemberDay]
    public let statistics: HabitStatistics

    public init(groupID: UUID, evaluator: String, key: String, days: [HabitEntry], scores: [Double], todayMembers: [GroupMemberDay],
                statistics: HabitStatistics) {
        self.groupID = groupID
        self.evaluator = evaluator
        self.key = key
        self.days = days
        self.scores = scores
        self.todayMembers = todayMembers
        self.statistics = statistics
    }

    /// The row to keep for `summary`, or nil when it cannot be kept: a rule not pinned to a
    /// script (its file may change at any time), or days that are not one run from the start.
    public init?(_ summary: GroupSummary, evaluator: String, key: String) {
        guard summary.days.count == summary.scores.count,
              zip(summary.days, summary.scores).allSatisfy({ $0.day == $1.day }),
              let first = summary.days.first, summary.days.last?.day == first.day.adding(days: summary.days.count - 1)
        else { return nil }
        self.init(groupID: summary.group.id, evaluator: evaluator, key: key, days: summary.days, scores: summary.scores.map(\.score),
                  todayMembers: summary.todayMembers, statistics: summary.statistics)
    }

    /// The summary this row holds for `group`, whose members today are `members`.
    public func summary(of group: HabitGroup, members: [Habit]) -> GroupSummary {
        GroupSummary(group: group, members: members, days: days, todayMembers: todayMembers, statistics: statistics,
                     scores: zip(days, scores).map { ($0.day, $1) })
    }

    /// What a group's figures on `today` depend on, hashed (SHA-256): its start and every
    /// revision's day, members, rules with their pins and parameters; the day; and each habit the
    /// revisions name, with whether it still exists and its change counter (`members`: absent
    /// when deleted). Nil when a rule is not pinned to a script.
    public static func key(of group: HabitGroup, today: LocalDay, members: [UUID: Int64]) -> String? {
        var text = "format=\(format);today=\(today.iso)"
        for revision in group.revisions {
            guard let rule = revision.rule.sha256, let streak = revision.streak.sha256 else { return nil }
            text += ";r\(revision.number)@\(revision.effectiveFrom.iso)=\(revision.rule.name)@\(rule)\(revision.rule.parametersJSON)"
                + "|\(revision.streak.name)@\(streak)\(revision.streak.parametersJSON)|"
            for member in revision.members {
                text += "\(member.uuidString)#\(members[member].map { String($0) } ?? "-"),"
            }
        }
        return SHA256(of: text).description
    }
}
