import Foundation

/// A script made available to users who did not install it: published by the server's
/// administrator (to some users or to every user) or shared by one user with another.
///
/// An offer changes nothing by itself: it is one more place a policy name can be found
/// (`PolicyDirectory`), after the user's own installed scripts and the policy folder; a habit that
/// names it is pinned to its script by hash, as to any other.
public struct PolicyOffer: Hashable, Sendable {
    /// The user it is offered to; nil for every user of the store (published only).
    public let recipient: String?
    /// The script, with the name it is offered under.
    public let script: PolicyScript
    /// The user who shared it; nil when the server published it.
    public let offeredBy: String?
    /// When it was published or shared.
    public let offeredAt: Date

    public init(recipient: String?, script: PolicyScript, offeredBy: String?, offeredAt: Date) {
        self.recipient = recipient
        self.script = script
        self.offeredBy = offeredBy
        self.offeredAt = offeredAt
    }

    public var name: String { script.name }

    /// How a listing names where it came from.
    public var source: PolicySource { offeredBy == nil ? .published : .shared }
}
