import Foundation

/// Where habits are kept, with their rule revisions. `insert` fails on an existing id and
/// `update` on a missing one: no upsert.
public protocol HabitRepository: AnyObject {
    /// Throws `RepositoryError.duplicateID` when the id exists.
    func insert(_ habit: Habit) throws
    /// Throws `RepositoryError.notFound` when the id does not exist, and
    /// `RepositoryError.revisionRewritten` when a stored revision would change (see `RevisionChanges`).
    func update(_ habit: Habit) throws
    /// Throws `RepositoryError.notFound` when the id does not exist.
    func delete(id: UUID) throws
    func habit(id: UUID) throws -> Habit?
    /// The habit whose `Habit.nameKey(for:)` equals `name`'s (trimmed, ignoring case).
    func habit(named name: String) throws -> Habit?
    /// Every habit, in the order they were inserted.
    func all() throws -> [Habit]
    /// Whether any stored revision names a policy without a pinned script (a store written before
    /// scripts were kept, or by a resolver that could not pin), until `PinStoredPolicies` runs.
    func hasUnpinnedRevisions() throws -> Bool
}

extension HabitRepository {
    /// A scan of every habit; a store with an index on the name key answers without one.
    public func habit(named name: String) throws -> Habit? {
        let key = Habit.nameKey(for: name)
        return try all().first { Habit.nameKey(for: $0.name) == key }
    }

    /// A scan of every habit; a store answers with one query.
    public func hasUnpinnedRevisions() throws -> Bool {
        try all().contains { $0.revisions.contains(where: \.isUnpinned) }
    }
}
