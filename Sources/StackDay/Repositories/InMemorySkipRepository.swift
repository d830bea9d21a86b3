import Foundation

/// Skipped days in memory, kept per habit in day order.
public final class InMemorySkipRepository: SkipRepository {
    var storage = InMemoryDayRecords<Skip>(entity: "skip", habitID: \.habitID, day: \.day) {
        ($0.day, $0.recordedAt) < ($1.day, $1.recordedAt)
    }

    public init() {}

    public func insert(_ skip: Skip) throws { try storage.insert(skip) }
    public func update(_ skip: Skip) throws { try storage.update(skip) }
    public func delete(id: UUID) throws { try storage.delete(id: id) }
    public func skip(id: UUID) throws -> Skip? { storage.record(id: id) }
    public func skips(habitID: UUID) throws -> [Skip] { storage.records(habitID: habitID) }
    public func skips(habitID: UUID, in days: LocalDayRange) throws -> [Skip] { storage.records(habitID: habitID, in: days) }
    public func deleteAll(habitID: UUID) throws -> Int { storage.deleteAll(habitID: habitID) }
}
