import StackDay

/// One owner's repositories over one connection, the same for both stores: what a store hands
/// its `write` and `read` bodies, and the cache it writes staged rows from afterwards.
public struct SQLStoreRepositories {
    public let transaction: StoreRepositories
    public let cache: SQLEvaluationCacheRepository

    public init(executor: any SQLExecutor, owner: String, bulk: (any SQLBulkCompletions)?) {
        cache = SQLEvaluationCacheRepository(executor: executor, owner: owner)
        transaction = StoreRepositories(
            habits: SQLHabitRepository(executor: executor, owner: owner),
            completions: SQLCompletionRepository(executor: executor, owner: owner, bulk: bulk),
            skips: SQLSkipRepository(executor: executor, owner: owner),
            scripts: SQLPolicyScriptRepository(executor: executor, owner: owner),
            users: SQLUserRepository(executor: executor),
            evaluations: cache,
            sync: SQLSyncRepository(executor: executor, owner: owner)
        )
    }
}
