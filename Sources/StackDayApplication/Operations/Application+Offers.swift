import StackDay

/// Scripts shared between users and published by the server.
extension Application {
    /// `policy share NAME --with USER`, `POST /v1/policies/{name}/shares`.
    public func share(_ name: String, _ request: ShareRequest) throws -> PolicyOfferView {
        PolicyOfferView(try OfferPolicies(context: context).share(name, with: request.with))
    }

    /// `policy unshare NAME --with USER`, `DELETE /v1/policies/{name}/shares/{user}`.
    public func unshare(_ name: String, with user: String) throws {
        try OfferPolicies(context: context).unshare(name, with: user)
    }

    /// `GET /v1/policies/{name}/shares`: whom this user shares `name` with.
    public func shares(of name: String) throws -> PolicyOffersView {
        PolicyOffersView(try OfferPolicies(context: context).shared().filter { $0.name == name })
    }

    /// `policy publish FILE [--user NAME…]`: on the server's store, to those users or every user.
    public func publish(_ name: String, source: String, to users: [String]?) throws -> PolicyOffersView {
        PolicyOffersView(try OfferPolicies(context: context).publish(name: name, source: source, to: users))
    }

    /// `policy unpublish NAME [--user NAME…]`: how many offers went.
    public func unpublish(_ name: String, from users: [String]?) throws -> Int {
        try OfferPolicies(context: context).unpublish(name: name, from: users)
    }
}
