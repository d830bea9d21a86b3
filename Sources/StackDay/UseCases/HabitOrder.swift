import Foundation

/// The order of a user's habits: by `Habit.position`, then by creation. Moving one renumbers the
/// list 1, 2, 3, … and writes only the habits whose position changed, so that sync (which merges
/// a habit's position as a field of its own) carries a move as few changes.
public enum HabitOrder {
    /// `habits` (in list order) with `moving` taken out and put back at `index` (0-based, clamped
    /// to the list), each with the position it then holds; only those whose position changed.
    public static func place(_ moving: Habit, at index: Int, in habits: [Habit]) -> [(habit: Habit, position: Int)] {
        var order = habits.filter { $0.id != moving.id }
        order.insert(moving, at: min(max(index, 0), order.count))
        return order.enumerated().compactMap { offset, habit in
            habit.position == offset + 1 ? nil : (habit, offset + 1)
        }
    }

    /// Places merged from several replicas can meet: two moves made at once leave two habits at
    /// one place. Then the list (in its order: by position, then by creation, which every
    /// replica reads alike) is numbered 1, 2, 3, … again, and the habits whose position changed
    /// are answered with it; nothing when every place is held once. Only the server settles, after
    /// a push, so every device is sent the one outcome and no two replicas renumber against each other.
    public static func settled(_ habits: [Habit]) -> [(habit: Habit, position: Int)] {
        let placed = habits.map(\.position).filter { $0 > 0 }
        guard Set(placed).count < placed.count else { return [] }
        let listed = habits.sorted { ($0.position, $0.createdAt, $0.id.uuidString) < ($1.position, $1.createdAt, $1.id.uuidString) }
        return listed.enumerated().compactMap { offset, habit in
            habit.position == offset + 1 ? nil : (habit, min(offset + 1, Habit.positionLimit))
        }
    }

    /// The position a new habit takes: after every habit there is.
    public static func next(after habits: [Habit]) -> Int {
        min((habits.map(\.position).max() ?? 0) + 1, Habit.positionLimit)
    }

    /// The 0-based index of a place in the list counted from 1; throws `UseCaseError.invalidPlace`
    /// below 1.
    static func index(ofPlace place: Int) throws -> Int {
        guard place >= 1 else { throw UseCaseError.invalidPlace(place) }
        return place - 1
    }

    /// Moves the habit to `index` (0-based) in the transaction's list, writing each habit whose
    /// position changed; the moved habit as stored after.
    static func move(_ habit: Habit, to index: Int, in tx: any HabitTransaction, at now: Date) throws -> Habit {
        var moved = habit
        for (changed, position) in place(habit, at: index, in: try tx.habits.all()) {
            let placed = try (changed.id == habit.id ? habit : changed).with(position: position, updatedAt: now)
            try tx.habits.update(placed)
            if placed.id == habit.id { moved = placed }
        }
        return moved
    }
}
