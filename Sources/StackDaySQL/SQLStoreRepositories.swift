import StackDay

/// One owner's repositories over one connection, the same for both stores: what a store hands
/// its `write` and `read` bodies, and the cache it writes staged rows from afterwards.
public struct SQLStoreRepositories {
    public let transaction: StoreRepositories
    public let cache: SQLEvaluationCacheRepository

    /// The change log, whose `startWrite`/`finishWrite` a store calls around each write transaction.
    public let sync: SQLSyncRepository

    /// `clock`: the one the change log's stamps are made from (nil: the machine's).
    public init(executor: any SQLExecutor, owner: String, bulk: (any SQLBulkCompletions)?, clock: (any Clock)? = nil) {
        cache = SQLEvaluationCacheRepository(executor: executor, owner: owner)
        sync = SQLSyncRepository(executor: executor, owner: owner, clock: clock, bulk: bulk)
        transaction = StoreRepositories(
            habits: SQLHabitRepository(executor: executor, owner: owner),
            completions: SQLCompletionRepository(executor: executor, owner: owner, bulk: bulk),
            skips: SQLSkipRepository(executor: executor, owner: owner),
            scripts: SQLPolicyScriptRepository(executor: executor, owner: owner),
            groups: SQLGroupRepository(executor: executor, owner: owner),
            users: SQLUserRepository(executor: executor),
            evaluations: cache,
            sync: sync,
            webhooks: SQLWebhookRepository(executor: executor),
            offers: SQLPolicyOfferRepository(executor: executor)
        )
    }
}
