import Foundation

/// Groups in memory, listed in the order they were made (then by id), as the SQL stores list them.
public final class InMemoryGroupRepository: GroupRepository {
    var items: [HabitGroup] = []

    public init() {}

    public func all() throws -> [HabitGroup] {
        items.sorted { ($0.createdAt, UUIDText.format($0.id)) < ($1.createdAt, UUIDText.format($1.id)) }
    }

    public func group(named name: String) throws -> HabitGroup? {
        let key = Habit.nameKey(for: name)
        return items.first { Habit.nameKey(for: $0.name) == key }
    }

    public func put(_ group: HabitGroup) throws {
        if let index = items.firstIndex(where: { $0.id == group.id }) { items[index] = group } else { items.append(group) }
    }

    public func delete(id: UUID) throws {
        items.removeAll { $0.id == id }
    }
}
