import StackDay

/// `GET /v1/policies/{name}/shares`, `policy publish`: `{"offers": [offer…]}`.
public struct PolicyOffersView: JSONView {
    public let offers: [PolicyOffer]

    public init(_ offers: [PolicyOffer]) {
        self.offers = offers
    }

    public var json: JSONValue { .object(["offers": .array(offers.map { PolicyOfferView($0).json })]) }
}
