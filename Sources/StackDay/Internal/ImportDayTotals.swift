import Foundation

/// Each habit-day's total as an import adds to it, checked against `Quantity.maximum`. A habit's
/// stored totals are read the first time the import meets it, before its first record is written.
struct ImportDayTotals {
    /// The completions an import hands a store in one statement.
    static let sliceSize = 5_000

    private var totals: [UUID: [LocalDay: Int64]] = [:]
    private let tx: any HabitTransaction

    init(in tx: any HabitTransaction) {
        self.tx = tx
    }

    /// Inserts the completions that are not stored yet (`owners[i]` is the habit of the i-th), in
    /// slices a store can send in one statement, checking each new one's day total. Returns how
    /// many were new and how many already stored.
    mutating func insert(
        _ completions: ArraySlice<Completion>, owners: [Habit], into repository: any CompletionRepository
    ) throws -> (inserted: Int, present: Int) {
        var inserted = 0, present = 0
        var start = completions.startIndex
        while start < completions.endIndex {
            let slice = completions[start..<min(completions.endIndex, start + Self.sliceSize)]
            for completion in slice where totals[completion.habitID] == nil { try load(completion.habitID) }
            for (offset, wasInserted) in try repository.insertIfAbsent(slice).enumerated() {
                if wasInserted {
                    let index = slice.startIndex + offset
                    try add(completions[index], habit: owners[index - completions.startIndex])
                    inserted += 1
                } else {
                    present += 1
                }
            }
            start = slice.endIndex
        }
        return (inserted, present)
    }

    private mutating func load(_ habitID: UUID) throws {
        var days: [LocalDay: Int64] = [:]
        for (day, amount) in try tx.completions.dailyTotals(habitID: habitID, in: LocalDayRange(.earliest, .latest)) { days[day, default: 0] += amount }
        totals[habitID] = days
    }

    private mutating func add(_ completion: Completion, habit: Habit) throws {
        let day = completion.completedOn
        let existing = totals[habit.id]?[day] ?? 0
        try TrackingRules.requireDayTotal(existing: existing, adding: completion.amountThousandths, habit: habit, day: day)
        totals[habit.id, default: [:]][day] = existing + completion.amountThousandths
    }
}
