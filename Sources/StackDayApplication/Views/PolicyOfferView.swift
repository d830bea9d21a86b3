import StackDay
import StackDayExchange

/// A published or shared script: `{"name", "sha256", "shortHash", "to", "offeredAt"}` (`to` null
/// for every user), with `sharedBy` for a share. Never its source: a recipient reads that through
/// `GET /v1/policies/{name}`.
public struct PolicyOfferView: JSONView {
    public let offer: PolicyOffer

    public init(_ offer: PolicyOffer) {
        self.offer = offer
    }

    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "name": .string(offer.name), "sha256": .string(offer.script.sha256), "shortHash": .string(offer.script.shortHash),
            "to": ViewJSON.string(offer.recipient), "offeredAt": .string(InstantText.format(offer.offeredAt)),
        ]
        if let by = offer.offeredBy { object["sharedBy"] = .string(by) }
        return .object(object)
    }
}
