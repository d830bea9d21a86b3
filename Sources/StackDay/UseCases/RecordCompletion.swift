import Foundation

/// Records an amount for a habit on a day, or at an instant that becomes a day.
public struct RecordCompletion {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Records on `day` (default today), with `note` kept beside the amount.
    ///
    /// Throws for a future day, a day outside the tracking period, an amount that is not a
    /// finite number ≥ 0.001, a note past `Completion.noteLimit`, or a second record on one day
    /// of a plain habit (goal 1, no unit); `UseCaseError.quotaExceeded` past the user's records
    /// of one habit on one day.
    @discardableResult
    public func callAsFunction(_ reference: HabitReference, amount: Double = 1, on day: LocalDay? = nil, note: String? = nil) throws -> Completion {
        try record(reference, amount: amount, day: day ?? context.today, recordedAt: context.clock.now, note: note)
    }

    /// The same, naming the habit by name.
    @discardableResult
    public func callAsFunction(habitName: String, amount: Double = 1, on day: LocalDay? = nil, note: String? = nil) throws -> Completion {
        try callAsFunction(.name(habitName), amount: amount, on: day, note: note)
    }

    /// Records at `instant`, which counts for the day the user's boundary puts it on.
    @discardableResult
    public func callAsFunction(_ reference: HabitReference, amount: Double = 1, at instant: Date, note: String? = nil) throws -> Completion {
        guard instant <= context.clock.now else {
            throw UseCaseError.futureInstant(instant: instant.formatted(.iso8601))
        }
        return try record(reference, amount: amount, day: context.boundary.day(for: instant), recordedAt: instant, note: note)
    }

    /// The same, naming the habit by name.
    @discardableResult
    public func callAsFunction(habitName: String, amount: Double = 1, at instant: Date, note: String? = nil) throws -> Completion {
        try callAsFunction(.name(habitName), amount: amount, at: instant, note: note)
    }

    private func record(_ reference: HabitReference, amount: Double, day: LocalDay, recordedAt: Date, note: String?) throws -> Completion {
        try context.store.write { tx in
            try record(try context.habit(reference, in: tx), amount: amount, day: day, recordedAt: recordedAt, note: note, in: tx)
        }
    }

    /// Records for `habit` inside a transaction of the caller's, under the same rules.
    func record(_ habit: Habit, amount: Double, day: LocalDay, recordedAt: Date, note: String?, in tx: any HabitTransaction) throws -> Completion {
        let today = context.today
        let completion = try Completion(habitID: habit.id, completedOn: day, recordedAt: recordedAt, amount: amount, note: note)
        try TrackingRules.requireRecordable(day, habit: habit, today: today)
        let held = try tx.completions.held(habitID: habit.id, on: day)
        let existing = held.thousandths
        if habit.isPlain, existing > 0 {
            throw UseCaseError.alreadyCompleted(habit: habit.name, day: day)
        }
        try context.limits(in: tx).check(.recordsPerDay, holding: held.records + 1)
        try TrackingRules.requireDayTotal(existing: existing, adding: completion.amountThousandths, habit: habit, day: day)
        try tx.completions.insert(completion)
        try ManageWebhooks.queue(.record, key: completion.id.uuidString.lowercased(), data: completion.webhookData(habit: habit),
                                 user: context.store.owner, at: context.clock.now, in: tx)
        return completion
    }
}
