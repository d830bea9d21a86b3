import Foundation

/// Moves a habit in its owner's list: before another habit, or to the end.
public struct MoveHabit {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Where a habit goes.
    public enum Place: Sendable, Equatable {
        /// Just before this habit.
        case before(HabitReference)
        /// After every other habit.
        case last
        /// At this place in the list, counted from 1 (past the end: last).
        case at(Int)
    }

    /// Throws `UseCaseError.habitNotFound` for either name, and `.cannotMoveBeforeItself`.
    @discardableResult
    public func callAsFunction(_ reference: HabitReference, to place: Place) throws -> Habit {
        try context.store.write { tx in
            let habit = try context.habit(reference, in: tx)
            let others = try tx.habits.all().filter { $0.id != habit.id }
            let index: Int
            switch place {
            case .before(let target):
                let anchor = try context.habit(target, in: tx)
                guard anchor.id != habit.id else { throw UseCaseError.cannotMoveBeforeItself(habit: habit.name) }
                index = others.firstIndex { $0.id == anchor.id } ?? others.count
            case .last: index = others.count
            case .at(let place): index = try HabitOrder.index(ofPlace: place)
            }
            return try HabitOrder.move(habit, to: index, in: tx, at: context.clock.now)
        }
    }
}
