import Foundation

/// Writes many completions in resumable batches; running it again with the same data changes nothing.
///
/// Each batch is one write transaction, so an interrupted import leaves whole batches behind and
/// a second run inserts only what is missing (completions are matched by id).
public struct ImportCompletions {
    public let context: HabitContext
    public let batchSize: Int

    public init(context: HabitContext, batchSize: Int = 100_000) {
        self.context = context
        self.batchSize = max(1, batchSize)
    }

    /// Throws when a completion names an unknown habit or would push a day's total past
    /// `Quantity.maximum`; the batches before it stay written. As with `ImportArchive`, a day
    /// outside the tracking period is restored, not refused. `progress` is told the number of
    /// records handled so far.
    @discardableResult
    public func callAsFunction(_ completions: some Sequence<Completion>, progress: ((Int) -> Void)? = nil) throws -> ImportSummary {
        var habits: [UUID: Habit] = [:]
        var inserted = 0
        var present = 0
        var batch: [Completion] = []
        batch.reserveCapacity(batchSize)

        func flush() throws {
            guard !batch.isEmpty else { return }
            try context.store.write { tx in
                var dayTotals = ImportDayTotals(in: tx)
                let owners = try batch.map { completion -> Habit in
                    if let known = habits[completion.habitID] { return known }
                    guard let found = try tx.habits.habit(id: completion.habitID) else {
                        throw UseCaseError.habitIDNotFound(id: completion.habitID)
                    }
                    habits[completion.habitID] = found
                    return found
                }
                let counts = try dayTotals.insert(batch[...], owners: owners, into: tx.completions)
                inserted += counts.inserted
                present += counts.present
            }
            batch.removeAll(keepingCapacity: true)
            progress?(inserted + present)
        }

        for completion in completions {
            batch.append(completion)
            if batch.count == batchSize { try flush() }
        }
        try flush()
        return ImportSummary(inserted: inserted, alreadyPresent: present)
    }
}
