/// Offered scripts in memory, in the order they were put.
public final class InMemoryPolicyOfferRepository: PolicyOfferRepository {
    var storage: [PolicyOffer] = []

    public init() {}

    public func offers(to user: String) throws -> [PolicyOffer] {
        storage.filter { $0.recipient == nil || $0.recipient == user }
    }

    public func offers(by user: String?) throws -> [PolicyOffer] {
        storage.filter { $0.offeredBy == user }
    }

    public func put(_ offer: PolicyOffer) throws {
        storage.removeAll { $0.recipient == offer.recipient && $0.name == offer.name && $0.offeredBy == offer.offeredBy }
        storage.append(offer)
    }

    public func remove(name: String, offeredBy: String?, recipient: String?) throws -> Int {
        let before = storage.count
        storage.removeAll { $0.name == name && $0.offeredBy == offeredBy && (recipient == nil || $0.recipient == recipient) }
        return before - storage.count
    }

    public func removeAll(of user: String) throws {
        storage.removeAll { $0.recipient == user || $0.offeredBy == user }
    }
}
