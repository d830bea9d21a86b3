import Foundation

/// Completions in memory, kept per habit in day order.
public final class InMemoryCompletionRepository: CompletionRepository {
    var storage = InMemoryDayRecords<Completion>(entity: "completion", habitID: \.habitID, day: \.completedOn) {
        ($0.completedOn, $0.recordedAt) < ($1.completedOn, $1.recordedAt)
    }

    public init() {}

    public func insert(_ completion: Completion) throws { try storage.insert(completion) }
    public func update(_ completion: Completion) throws { try storage.update(completion) }
    public func delete(id: UUID) throws { try storage.delete(id: id) }
    public func completion(id: UUID) throws -> Completion? { storage.record(id: id) }
    public func completions(habitID: UUID) throws -> [Completion] { storage.records(habitID: habitID) }
    public func completions(habitID: UUID, in days: LocalDayRange) throws -> [Completion] {
        storage.records(habitID: habitID, in: days)
    }
    public func deleteAll(habitID: UUID) throws -> Int { storage.deleteAll(habitID: habitID) }

    public func dailyTotals(habitID: UUID, in days: LocalDayRange) throws -> [(day: LocalDay, thousandths: Int64)] {
        var totals: [(day: LocalDay, thousandths: Int64)] = []
        for completion in storage.records(habitID: habitID, in: days) {
            if totals.last?.day == completion.completedOn {
                totals[totals.count - 1].thousandths += completion.amountThousandths
            } else {
                totals.append((completion.completedOn, completion.amountThousandths))
            }
        }
        return totals
    }

    public func insertIfAbsent(_ completion: Completion) throws -> Bool {
        guard storage.record(id: completion.id) == nil else { return false }
        try storage.insert(completion)
        return true
    }
}
