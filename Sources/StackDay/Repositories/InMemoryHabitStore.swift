/// A store in memory; a `write` that throws restores the state from before it. Stores made with
/// `scoped(to:)` share the memory, each owner with repositories of its own.
public final class InMemoryHabitStore: HabitStore {
    public let owner: String
    private let shared: Owners
    private let repositories: Repositories

    public convenience init() {
        self.init(owner: "default", shared: Owners())
    }

    private init(owner: String, shared: Owners) {
        self.owner = owner
        self.shared = shared
        repositories = shared.repositories(of: owner)
    }

    public func scoped(to owner: String) -> any HabitStore {
        owner == self.owner ? self : InMemoryHabitStore(owner: owner, shared: shared)
    }

    public func write<T>(_ body: (any HabitTransaction) throws -> T) throws -> T {
        let saved = (repositories.habitRepository.items, repositories.completionRepository.storage, repositories.skipRepository.storage,
                     repositories.scriptRepository.storage, shared.users.storage, shared.webhooks.storage,
                     shared.offers.storage, repositories.groupRepository.items)
        do {
            let result = try body(repositories)
            try CommitGate.check()
            return result
        } catch {
            repositories.habitRepository.items = saved.0
            repositories.completionRepository.storage = saved.1
            repositories.skipRepository.storage = saved.2
            repositories.scriptRepository.storage = saved.3
            shared.users.storage = saved.4
            shared.webhooks.storage = saved.5
            shared.offers.storage = saved.6
            repositories.groupRepository.items = saved.7
            throw error
        }
    }

    public func read<T>(_ body: (any HabitTransaction) throws -> T) throws -> T {
        try body(repositories)
    }

    /// Each owner's repositories, made on first use, and the users they share.
    private final class Owners {
        private var byOwner: [String: Repositories] = [:]
        let users = InMemoryUserRepository()
        let webhooks = InMemoryWebhookRepository()
        let offers = InMemoryPolicyOfferRepository()

        func repositories(of owner: String) -> Repositories {
            if let existing = byOwner[owner] { return existing }
            let made = Repositories(users: users, webhooks: webhooks, offers: offers)
            byOwner[owner] = made
            return made
        }
    }

    private final class Repositories: HabitTransaction {
        let habitRepository = InMemoryHabitRepository()
        let completionRepository = InMemoryCompletionRepository()
        let skipRepository = InMemorySkipRepository()
        let scriptRepository = InMemoryPolicyScriptRepository()
        let groupRepository = InMemoryGroupRepository()
        let users: any UserRepository
        let webhookRepository: InMemoryWebhookRepository
        let offerRepository: InMemoryPolicyOfferRepository

        init(users: InMemoryUserRepository, webhooks: InMemoryWebhookRepository, offers: InMemoryPolicyOfferRepository) {
            self.users = users
            webhookRepository = webhooks
            offerRepository = offers
            users.removed = { [weak webhooks] in webhooks?.deleteAll(of: $0) }
        }

        var habits: any HabitRepository { habitRepository }
        var completions: any CompletionRepository { completionRepository }
        var skips: any SkipRepository { skipRepository }
        var scripts: any PolicyScriptRepository { scriptRepository }
        var groups: any GroupRepository { groupRepository }
        var webhooks: (any WebhookRepository)? { webhookRepository }
        var offers: (any PolicyOfferRepository)? { offerRepository }
    }
}
