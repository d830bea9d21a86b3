import Foundation

/// One owner's groups and their revisions.
public protocol GroupRepository: AnyObject {
    /// The owner's groups, in the order they were made.
    func all() throws -> [HabitGroup]
    /// The group with this name, compared as habit names are (`Habit.nameKey`).
    func group(named name: String) throws -> HabitGroup?
    /// Keeps `group`: a new one is added, one held already takes its name and revisions.
    func put(_ group: HabitGroup) throws
    /// Removes the group with this id; nothing when there is none.
    func delete(id: UUID) throws
}
