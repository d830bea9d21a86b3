/// The repositories a store built over one connection, handed to `write` and `read` bodies as
/// their transaction (only inside them: see `HabitTransaction`).
public struct StoreRepositories: HabitTransaction {
    public let habits: any HabitRepository
    public let completions: any CompletionRepository
    public let skips: any SkipRepository
    public let scripts: any PolicyScriptRepository
    public let groups: any GroupRepository
    public let users: any UserRepository
    public let evaluations: (any EvaluationCacheRepository)?
    public let sync: (any SyncRepository)?
    public let webhooks: (any WebhookRepository)?
    public let offers: (any PolicyOfferRepository)?

    public init(
        habits: any HabitRepository, completions: any CompletionRepository, skips: any SkipRepository,
        scripts: any PolicyScriptRepository, groups: any GroupRepository, users: any UserRepository, evaluations: (any EvaluationCacheRepository)?,
        sync: (any SyncRepository)? = nil, webhooks: (any WebhookRepository)? = nil, offers: (any PolicyOfferRepository)? = nil
    ) {
        self.offers = offers
        self.sync = sync
        self.webhooks = webhooks
        self.habits = habits
        self.completions = completions
        self.skips = skips
        self.scripts = scripts
        self.groups = groups
        self.users = users
        self.evaluations = evaluations
    }
}
