import Foundation

/// Where habits are kept. `insert` fails on an existing id and `update` on a missing one: no upsert.
public protocol HabitRepository: AnyObject {
    /// Throws `RepositoryError.duplicateID` when the id exists.
    func insert(_ habit: Habit) throws
    /// Throws `RepositoryError.notFound` when the id does not exist.
    func update(_ habit: Habit) throws
    /// Throws `RepositoryError.notFound` when the id does not exist.
    func delete(id: UUID) throws
    func habit(id: UUID) throws -> Habit?
    /// Every habit, in the order they were inserted.
    func all() throws -> [Habit]
}

extension HabitRepository {
    /// The habit with this name, compared case-insensitively.
    public func habit(named name: String) throws -> Habit? {
        let key = HabitName.key(name)
        return try all().first { HabitName.key($0.name) == key }
    }
}
