/// A store in memory; a `write` that throws restores the state from before it.
public final class InMemoryHabitStore: HabitStore {
    private let repositories = Repositories()

    public init() {}

    public func write<T>(_ body: (any HabitTransaction) throws -> T) throws -> T {
        let saved = (repositories.habitRepository.items, repositories.completionRepository.storage, repositories.skipRepository.storage,
                     repositories.scriptRepository.storage)
        do {
            return try body(repositories)
        } catch {
            repositories.habitRepository.items = saved.0
            repositories.completionRepository.storage = saved.1
            repositories.skipRepository.storage = saved.2
            repositories.scriptRepository.storage = saved.3
            throw error
        }
    }

    public func read<T>(_ body: (any HabitTransaction) throws -> T) throws -> T {
        try body(repositories)
    }

    private final class Repositories: HabitTransaction {
        let habitRepository = InMemoryHabitRepository()
        let completionRepository = InMemoryCompletionRepository()
        let skipRepository = InMemorySkipRepository()
        let scriptRepository = InMemoryPolicyScriptRepository()

        var habits: any HabitRepository { habitRepository }
        var completions: any CompletionRepository { completionRepository }
        var skips: any SkipRepository { skipRepository }
        var scripts: any PolicyScriptRepository { scriptRepository }
    }
}
