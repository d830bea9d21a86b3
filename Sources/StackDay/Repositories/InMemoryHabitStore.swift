/// A store in memory; a `write` that throws restores the state from before it.
public final class InMemoryHabitStore: HabitStore {
    private let habitRepository = InMemoryHabitRepository()
    private let completionRepository = InMemoryCompletionRepository()
    private let skipRepository = InMemorySkipRepository()

    public init() {}

    public var habits: any HabitRepository { habitRepository }
    public var completions: any CompletionRepository { completionRepository }
    public var skips: any SkipRepository { skipRepository }

    public func write<T>(_ body: () throws -> T) throws -> T {
        let saved = (habitRepository.items, completionRepository.storage, skipRepository.storage)
        do {
            return try body()
        } catch {
            habitRepository.items = saved.0
            completionRepository.storage = saved.1
            skipRepository.storage = saved.2
            throw error
        }
    }

    public func read<T>(_ body: () throws -> T) throws -> T {
        try body()
    }
}
