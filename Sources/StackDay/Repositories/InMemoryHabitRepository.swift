import Foundation

/// Habits in memory, in insertion order.
public final class InMemoryHabitRepository: HabitRepository {
    var items: [Habit] = []

    public init() {}

    public func insert(_ habit: Habit) throws {
        guard !items.contains(where: { $0.id == habit.id }) else { throw RepositoryError.duplicateID(entity: "habit", id: habit.id) }
        items.append(habit)
    }

    public func update(_ habit: Habit) throws {
        guard let index = items.firstIndex(where: { $0.id == habit.id }) else { throw RepositoryError.notFound(entity: "habit", id: habit.id) }
        _ = try RevisionChanges(stored: items[index].revisions, updated: habit)
        items[index] = habit
    }

    public func delete(id: UUID) throws {
        guard let index = items.firstIndex(where: { $0.id == id }) else { throw RepositoryError.notFound(entity: "habit", id: id) }
        items.remove(at: index)
    }

    public func habit(id: UUID) throws -> Habit? { items.first { $0.id == id } }

    /// By position, then in creation order, then by id (as the stores order them, the same on every replica).
    public func all() throws -> [Habit] {
        items.sorted { ($0.position, $0.createdAt, UUIDText.format($0.id)) < ($1.position, $1.createdAt, UUIDText.format($1.id)) }
    }
}
