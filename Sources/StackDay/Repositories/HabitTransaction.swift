/// The repositories of one store, as one transaction sees them.
///
/// A handle is valid only inside the `write` or `read` that passed it; the repositories are
/// reachable no other way, so no caller can touch the store outside a transaction.
public protocol HabitTransaction {
    var habits: any HabitRepository { get }
    var completions: any CompletionRepository { get }
    var skips: any SkipRepository { get }
    var scripts: any PolicyScriptRepository { get }
    var groups: any GroupRepository { get }
    /// The store's users (not scoped to this transaction's owner).
    var users: any UserRepository { get }
    /// The store's evaluation cache; nil for a store that keeps none.
    var evaluations: (any EvaluationCacheRepository)? { get }
    /// The owner's change log for sync; nil for a store that keeps none.
    var sync: (any SyncRepository)? { get }
    /// The store's webhooks and their queue (not scoped to this transaction's owner); nil for a
    /// store that keeps none.
    var webhooks: (any WebhookRepository)? { get }
    /// Scripts published by the server or shared between users (not scoped to this transaction's
    /// owner); nil for a store that keeps none.
    var offers: (any PolicyOfferRepository)? { get }
}

extension HabitTransaction {
    public var evaluations: (any EvaluationCacheRepository)? { nil }
    public var sync: (any SyncRepository)? { nil }
    public var webhooks: (any WebhookRepository)? { nil }
    public var offers: (any PolicyOfferRepository)? { nil }
}
