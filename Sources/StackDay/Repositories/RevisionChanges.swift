import Foundation

/// What updating a habit does to its stored rule revisions: revisions are append-only, and a
/// stored one may only gain pins (an unpinned choice bound to the script it resolved to).
public struct RevisionChanges: Sendable {
    /// Stored revisions whose unpinned choices gain a hash.
    public let pinned: [HabitRevision]
    /// Revisions numbered past the stored ones.
    public let appended: [HabitRevision]

    /// Compares the stored revisions with the habit's; throws `RepositoryError.revisionRewritten`
    /// when one would be dropped or changed otherwise.
    public init(stored: [HabitRevision], updated habit: Habit) throws {
        guard habit.revisions.count >= stored.count else {
            throw RepositoryError.revisionRewritten(habitID: habit.id, number: habit.revisions.count + 1)
        }
        var pinned: [HabitRevision] = []
        for (old, new) in zip(stored, habit.revisions) where old != new {
            let samePolicies = PolicyRole.habitRoles.allSatisfy { role in
                let (before, after) = (old.choice(for: role), new.choice(for: role))
                return before == after || (before.sha256 == nil && before == after.unpinned)
            }
            guard samePolicies, old.number == new.number, old.effectiveFrom == new.effectiveFrom, old.goal == new.goal,
                  old.createdAt == new.createdAt
            else { throw RepositoryError.revisionRewritten(habitID: habit.id, number: old.number) }
            pinned.append(new)
        }
        self.pinned = pinned
        appended = Array(habit.revisions.dropFirst(stored.count))
    }
}
