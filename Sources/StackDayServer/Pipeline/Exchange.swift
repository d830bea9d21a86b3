import Foundation
import StackDay

/// One request on its way through the pipeline's stages, and what the stages learn of it: its id,
/// the user it turned out to be. Used by one thread, for one request.
final class Exchange {
    var request: HTTPRequest
    /// `X-Request-Id`: the client's, when reasonable, else a new one (`RequestIdentity`).
    var requestID = ""
    /// The user the request authenticated as (a token, a session, a feed or pairing credential).
    var user: String?
    /// Under `/v1`, once authenticated (`Authentication`): the account and its context (its store
    /// scope, policies, zone and day start).
    var account: User?
    /// The paired device whose token it is; nil for the account's own token.
    var device: UUID?
    var context: HabitContext?
    /// Under `/v1`: the endpoint the request reached, or why none (`Dispatch`).
    var reached: Router<HabitRoutes.Endpoint>.Match = .notFound
    let started: Date

    init(_ request: HTTPRequest, started: Date = Date()) {
        self.request = request
        self.started = started
    }

    /// The request's path as decoded segments; nil for a path that is not valid percent-encoded UTF-8.
    var segments: [String]? { Router<ServerRoute>.segments(of: request.path) }
}
