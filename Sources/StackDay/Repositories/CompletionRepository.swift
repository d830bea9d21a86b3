import Foundation

/// Where completions are kept. Lists come in day order, then by `recordedAt`.
public protocol CompletionRepository: AnyObject {
    /// Throws `RepositoryError.duplicateID` when the id exists.
    func insert(_ completion: Completion) throws
    /// Throws `RepositoryError.notFound` when the id does not exist.
    func update(_ completion: Completion) throws
    /// Throws `RepositoryError.notFound` when the id does not exist.
    func delete(id: UUID) throws
    func completion(id: UUID) throws -> Completion?
    func completions(habitID: UUID) throws -> [Completion]
    /// The habit's completions whose day falls in `days` (both ends included).
    func completions(habitID: UUID, in days: LocalDayRange) throws -> [Completion]
    /// The sum of each day's amounts, in thousandths of the unit, for the days of `days` that have
    /// completions, in day order: what a timeline needs, without loading every completion.
    func dailyTotals(habitID: UUID, in days: LocalDayRange) throws -> [(day: LocalDay, thousandths: Int64)]
    /// How many completions the habit holds on `day`, and their amounts summed in thousandths of
    /// the unit (saturating): what a new record is checked against, without loading them.
    func held(habitID: UUID, on day: LocalDay) throws -> (records: Int, thousandths: Int64)
    /// Inserts unless a completion with this id exists; never changes a stored one. Returns
    /// whether it inserted (for imports that must be safe to run twice).
    func insertIfAbsent(_ completion: Completion) throws -> Bool
    /// The same for many at once (a store may send them in one statement); one answer each, in order.
    func insertIfAbsent(_ completions: ArraySlice<Completion>) throws -> [Bool]
    /// Removes every completion of a habit and returns how many there were.
    @discardableResult
    func deleteAll(habitID: UUID) throws -> Int
}

extension CompletionRepository {
    /// From the day's completions.
    public func held(habitID: UUID, on day: LocalDay) throws -> (records: Int, thousandths: Int64) {
        let amounts = try completions(habitID: habitID, in: LocalDayRange(day, day)).map(\.amountThousandths)
        return (amounts.count, amounts.reduce(0) { Quantity.adding($1, to: $0) })
    }

    /// One at a time.
    public func insertIfAbsent(_ completions: ArraySlice<Completion>) throws -> [Bool] {
        try completions.map { try insertIfAbsent($0) }
    }
}
