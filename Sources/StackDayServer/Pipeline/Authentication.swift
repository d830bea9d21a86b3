import StackDay

/// `/v1` is for a user's bearer token, written exactly `Bearer TOKEN` (401 otherwise): the request
/// then runs as that user, on a pooled store connection and policy resolver, in the user's zone.
struct Authentication: PipelineStage {
    let pool: ContextPool
    let clock: any StackDay.Clock
    let directory: ClientDirectory
    /// A user's Lua state holding more after a request is dropped.
    let stateBytes: Int

    func answer(_ exchange: Exchange, next: (Exchange) throws -> HTTPResponse) throws -> HTTPResponse {
        try pool.with { contexts in
            guard let token = exchange.request.authorization.flatMap(Tokens.bearer) else { throw APIError.unauthorized }
            guard let (account, device) = try Tokens.caller(of: token, contexts, at: clock.now) else {
                // A device that was revoked is told so, and how to connect again.
                if Tokens.isWellFormed(token), let revoked = try ManageDevices.revoked(deviceToken: token, in: try contexts.baseStore()) {
                    throw UseCaseError.deviceRevoked(name: revoked.name, at: revoked.revokedAt)
                }
                throw APIError.unauthorized
            }
            exchange.device = device
            directory.learn(token, user: account.name)
            exchange.user = account.name
            exchange.account = account
            exchange.context = try contexts.context(for: account.name, clock: clock, boundary: account.boundary)
            defer { contexts.release(account.name, holdingMoreThan: stateBytes) }
            return try next(exchange)
        }
    }
}
