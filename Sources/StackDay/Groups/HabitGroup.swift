import Foundation

/// Habits judged together: a routine ("morning": water, stretch, read) whose day is done by a
/// group rule of its own and which keeps a streak of its own. Its members and rules are
/// versioned as a habit's are (`GroupRevision`); a habit may belong to several groups.
public struct HabitGroup: Hashable, Sendable, Identifiable {
    public let id: UUID
    public let name: String
    public let createdAt: Date
    /// Numbered 1, 2, 3, …; never empty. A revision's day may come before an earlier one's when
    /// two devices changed the rules apart (sync numbers them in the order they arrived): then it
    /// judges from its day on, as a habit's revisions do (`segments`).
    public let revisions: [GroupRevision]

    /// Throws `GroupError` for a bad name or revisions out of order.
    public init(id: UUID? = nil, name: String, createdAt: Date, revisions: [GroupRevision]) throws(GroupError) {
        let trimmed = name.trimmedWhitespace
        guard !trimmed.isEmpty else { throw .emptyName }
        guard trimmed.count <= Habit.nameLimit else { throw .nameTooLong(length: trimmed.count, limit: Habit.nameLimit) }
        guard !revisions.isEmpty else { throw .noMembers }
        for (index, revision) in revisions.enumerated() {
            guard revision.number == index + 1 else { throw .revisionsOutOfOrder(expected: index + 1, found: revision.number) }
        }
        self.id = id ?? TimeOrderedID.next()
        self.name = trimmed
        self.createdAt = createdAt
        self.revisions = revisions
    }

    /// The revision in force now.
    public var latest: GroupRevision { revisions[revisions.count - 1] }

    /// The first day the group judges.
    public var startedOn: LocalDay { revisions[0].effectiveFrom }

    /// The revision judging `day`; nil before the group starts.
    public func revision(on day: LocalDay) -> GroupRevision? {
        revisions.last { $0.effectiveFrom <= day }
    }

    /// The days each revision judges, from the group's start to `last`, in order: revision r from
    /// its day to the day before the earliest day of any later revision (`RevisionSpans`, as a habit's),
    /// so a revision another from its own day or earlier took over judges none. Where a revision
    /// holds the rules of the one before it (a rollback bringing them back), the two are one span
    /// under the first, so a streak rule keeps its whole state and a rollback is an exact undo.
    public func segments(through last: LocalDay) -> [(revision: GroupRevision, days: LocalDayRange)] {
        RevisionSpans.of(revisions, in: LocalDayRange(startedOn, last), from: \.effectiveFrom, sameRules: { $0.sameRules(as: $1) })
    }

    /// The group with `rules` in force from `day` on, as a new revision after the latest (a
    /// revision once written is never changed, so every replica that holds it holds the same;
    /// two changes from one day are two revisions, the later judging). Rules equal to those in
    /// force write nothing. Throws for a day before the latest revision's.
    public func appending(_ rules: GroupRevision, from day: LocalDay, at now: Date, takesBack: Int? = nil) throws(GroupError) -> HabitGroup {
        let latest = self.latest
        guard day >= latest.effectiveFrom else { throw .revisionBeforeEarlier(day: day, earlier: latest.effectiveFrom) }
        if rules.sameRules(as: latest) { return self }
        return try replacing(revisions: revisions + [try rules.renumbered(latest.number + 1, effectiveFrom: day, createdAt: now, takesBack: takesBack)])
    }

    /// The same group under another name.
    public func renamed(_ name: String) throws(GroupError) -> HabitGroup {
        try HabitGroup(id: id, name: name, createdAt: createdAt, revisions: revisions)
    }

    /// The same group with these revisions.
    public func replacing(revisions: [GroupRevision]) throws(GroupError) -> HabitGroup {
        try HabitGroup(id: id, name: name, createdAt: createdAt, revisions: revisions)
    }
}
