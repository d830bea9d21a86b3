import Foundation

/// Records that belong to a habit and a day, kept per habit in day order: the shared
/// storage behind the in-memory completion and skip repositories.
struct InMemoryDayRecords<Record: Identifiable & Sendable> where Record.ID == UUID {
    let entity: String
    let habitID: KeyPath<Record, UUID>
    let day: KeyPath<Record, LocalDay>
    let order: (Record, Record) -> Bool
    private(set) var byHabit: [UUID: [Record]] = [:]
    private var habitOf: [UUID: UUID] = [:]

    init(entity: String, habitID: KeyPath<Record, UUID>, day: KeyPath<Record, LocalDay>, order: @escaping (Record, Record) -> Bool) {
        self.entity = entity
        self.habitID = habitID
        self.day = day
        self.order = order
    }

    mutating func insert(_ record: Record) throws {
        guard habitOf[record.id] == nil else { throw RepositoryError.duplicateID(entity: entity, id: record.id) }
        habitOf[record.id] = record[keyPath: habitID]
        var list = byHabit[record[keyPath: habitID], default: []]
        let index = list.firstIndex { order(record, $0) } ?? list.endIndex
        list.insert(record, at: index)
        byHabit[record[keyPath: habitID]] = list
    }

    mutating func update(_ record: Record) throws {
        guard habitOf[record.id] != nil else { throw RepositoryError.notFound(entity: entity, id: record.id) }
        try delete(id: record.id)
        try insert(record)
    }

    mutating func delete(id: UUID) throws {
        guard let owner = habitOf.removeValue(forKey: id) else { throw RepositoryError.notFound(entity: entity, id: id) }
        byHabit[owner]?.removeAll { $0.id == id }
    }

    func record(id: UUID) -> Record? {
        guard let owner = habitOf[id] else { return nil }
        return byHabit[owner]?.first { $0.id == id }
    }

    func records(habitID: UUID) -> [Record] { byHabit[habitID] ?? [] }

    func records(habitID: UUID, in days: LocalDayRange) -> [Record] {
        records(habitID: habitID).filter { days.contains($0[keyPath: day]) }
    }

    mutating func deleteAll(habitID: UUID) -> Int {
        let removed = byHabit.removeValue(forKey: habitID) ?? []
        for record in removed { habitOf[record.id] = nil }
        return removed.count
    }
}
