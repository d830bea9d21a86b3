import Foundation

/// Scripts made available to other users: published by the server's administrator (to some
/// users, or to every user) and shared by one user with another. An offer changes nothing of the
/// recipient's until they name it (`PolicyDirectory` finds it after their own installed scripts
/// and the policy folder); a habit that names it is pinned to it by hash, as to any script.
public struct OfferPolicies {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Vets `source` as `name` (as `policy install` does) and publishes it to `users`, or to
    /// every user of the store when nil (those added later too). Replaces what was published
    /// under that name to them before. Throws `PolicyRefusal`, `UseCaseError.userNotFound`;
    /// nothing is written then.
    @discardableResult
    public func publish(name: String, source: String, to users: [String]?) throws -> [PolicyOffer] {
        let script = try InstallPolicy(context: context).vetted(name: name, source: source)
        return try context.store.write { tx in
            let offers = try Self.repository(tx)
            let recipients: [String?] = try users.map { names in
                try names.map { name -> String? in
                    guard try tx.users.user(named: name) != nil else { throw UseCaseError.userNotFound(name: name) }
                    return name
                }
            } ?? [nil]
            let made = recipients.map { PolicyOffer(recipient: $0, script: script, offeredBy: nil, offeredAt: context.clock.now) }
            for offer in made { try offers.put(offer) }
            return made
        }
    }

    /// Takes back what the server published as `name`, from `users` or from everyone it was
    /// published to; returns how many offers went. Throws `UseCaseError.offerNotFound` when none did.
    @discardableResult
    public func unpublish(name: String, from users: [String]?) throws -> Int {
        try context.store.write { tx in
            let offers = try Self.repository(tx)
            let removed = try users.map { try $0.reduce(0) { $0 + (try offers.remove(name: name, offeredBy: nil, recipient: $1)) } }
                ?? offers.remove(name: name, offeredBy: nil, recipient: nil)
            guard removed > 0 else { throw UseCaseError.offerNotFound(name: name) }
            return removed
        }
    }

    /// Shares the script the context's user installed last as `name` with `user`, who sees it
    /// as `shared by` this user. Sharing again offers the script installed now. Throws
    /// `UseCaseError.policyNotInstalled`, `.userNotFound`, `.shareWithSelf`.
    @discardableResult
    public func share(_ name: String, with user: String) throws -> PolicyOffer {
        let owner = context.store.owner
        guard user != owner else { throw UseCaseError.shareWithSelf(name: name) }
        return try context.store.write { tx in
            guard let script = try tx.scripts.latestInstalled(named: name) else { throw UseCaseError.policyNotInstalled(name: name) }
            guard try tx.users.user(named: user) != nil else { throw UseCaseError.userNotFound(name: user) }
            let offer = PolicyOffer(recipient: user, script: PolicyScript(name: script.name, source: script.source, installedAt: context.clock.now),
                                    offeredBy: owner, offeredAt: context.clock.now)
            try Self.repository(tx).put(offer)
            return offer
        }
    }

    /// Stops sharing `name` with `user`. Throws `UseCaseError.offerNotFound` when it was not shared with them.
    public func unshare(_ name: String, with user: String) throws {
        try context.store.write { tx in
            guard try Self.repository(tx).remove(name: name, offeredBy: context.store.owner, recipient: user) > 0 else {
                throw UseCaseError.offerNotFound(name: name)
            }
        }
    }

    /// What the context's user shared, oldest first.
    public func shared() throws -> [PolicyOffer] {
        try context.store.read { tx in try Self.repository(tx).offers(by: context.store.owner) }
    }

    /// What the server published, oldest first.
    public func published() throws -> [PolicyOffer] {
        try context.store.read { tx in try Self.repository(tx).offers(by: nil) }
    }

    /// The store's offers; a store that keeps none cannot offer.
    private static func repository(_ tx: any HabitTransaction) throws -> any PolicyOfferRepository {
        guard let offers = tx.offers else { throw UseCaseError.offerNotFound(name: "(this store keeps no offered scripts)") }
        return offers
    }
}
