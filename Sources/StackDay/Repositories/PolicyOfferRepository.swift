/// Scripts offered to users: published by the server (`recipient` nil: every user) and shared by
/// one user with another. Not scoped to a transaction's owner: every call names its users.
public protocol PolicyOfferRepository: AnyObject {
    /// What `user` is offered: published to them or to every user, and shared with them; oldest
    /// first.
    func offers(to user: String) throws -> [PolicyOffer]
    /// What `user` shared with others (`offeredBy` is `user`), oldest first; with a nil `user`,
    /// what the server published.
    func offers(by user: String?) throws -> [PolicyOffer]
    /// Keeps `offer`, replacing the one with the same recipient, name and offerer.
    func put(_ offer: PolicyOffer) throws
    /// Removes the offers of `name` by `offeredBy` (nil: the server's) to `recipient` (nil: to
    /// every recipient); returns how many went.
    @discardableResult
    func remove(name: String, offeredBy: String?, recipient: String?) throws -> Int
    /// Removes every offer made by or to `user`: what removing the user takes with it.
    func removeAll(of user: String) throws
}
