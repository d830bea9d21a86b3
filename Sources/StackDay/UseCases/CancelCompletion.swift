import Foundation

/// Removes a completion: by id, or the latest recorded on a day.
public struct CancelCompletion {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Removes the completion with this id; throws `UseCaseError.completionNotFound`.
    public func callAsFunction(id: UUID) throws {
        try context.store.write { tx in
            guard let completion = try tx.completions.completion(id: id) else {
                throw UseCaseError.completionNotFound(id: id.uuidString)
            }
            try tx.completions.delete(id: id)
            try queueUndo(completion, habit: try context.habit(.id(completion.habitID), in: tx), in: tx)
        }
    }

    /// Removes the latest completion recorded on `day` (default today) and returns it;
    /// throws `UseCaseError.nothingToUndo` when the day has none.
    @discardableResult
    public func callAsFunction(_ reference: HabitReference, on day: LocalDay? = nil) throws -> Completion {
        let day = day ?? context.today
        return try context.store.write { tx in
            let habit = try context.habit(reference, in: tx)
            let onDay = try tx.completions.completions(habitID: habit.id, in: LocalDayRange(day, day))
            guard let latest = onDay.max(by: { $0.recordedAt < $1.recordedAt }) else {
                throw UseCaseError.nothingToUndo(habit: habit.name, day: day)
            }
            try tx.completions.delete(id: latest.id)
            try queueUndo(latest, habit: habit, in: tx)
            return latest
        }
    }

    /// The same, naming the habit by name.
    @discardableResult
    public func callAsFunction(habitName: String, on day: LocalDay? = nil) throws -> Completion {
        try callAsFunction(.name(habitName), on: day)
    }

    private func queueUndo(_ completion: Completion, habit: Habit, in tx: any HabitTransaction) throws {
        try ManageWebhooks.queue(.undo, key: completion.id.uuidString.lowercased(), data: completion.webhookData(habit: habit),
                                 user: context.store.owner, at: context.clock.now, in: tx)
    }
}
