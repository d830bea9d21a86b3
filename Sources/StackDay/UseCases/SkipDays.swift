import Foundation

/// Excuses a day, or each day of a range (a vacation), for a habit.
public struct SkipDays {
    public static let rangeLimit = 366

    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Skips every day of `days` not already skipped and returns the new skips.
    ///
    /// Every day must be recordable (not in the future, inside the tracking period); at most
    /// `rangeLimit` days at once.
    @discardableResult
    public func callAsFunction(_ reference: HabitReference, days: LocalDayRange) throws -> [Skip] {
        try Self.check(days)
        let today = context.today
        let now = context.clock.now
        return try context.store.write { tx in
            let habit = try context.habit(reference, in: tx)
            try TrackingRules.requireRecordable(days.first, habit: habit, today: today)
            try TrackingRules.requireRecordable(days.last, habit: habit, today: today)
            let existing = Set(try tx.skips.skips(habitID: habit.id, in: days).map(\.day))
            var created: [Skip] = []
            for day in days where !existing.contains(day) {
                let skip = Skip(habitID: habit.id, day: day, recordedAt: now)
                try tx.skips.insert(skip)
                created.append(skip)
            }
            if let first = created.first {
                try ManageWebhooks.queue(.skip, key: first.id.uuidString.lowercased(),
                                         data: .object(["habit": .string(habit.name), "days": .array(created.map { .string($0.day.iso) })]),
                                         user: context.store.owner, at: now, in: tx)
            }
            return created
        }
    }

    /// Throws for an empty range, or one of more than `rangeLimit` days (for `UnskipDays` too).
    static func check(_ days: LocalDayRange) throws {
        guard !days.isEmpty else { throw UseCaseError.invalidRange(from: days.first, to: days.last) }
        guard days.count <= rangeLimit else { throw UseCaseError.rangeTooLong(days: days.count, limit: rangeLimit) }
    }

    /// The same, naming the habit by name.
    @discardableResult
    public func callAsFunction(habitName: String, days: LocalDayRange) throws -> [Skip] {
        try callAsFunction(.name(habitName), days: days)
    }
}
