import StackDay

/// A write sent with an `Idempotency-Key`: a retry with the same key and request gets the first
/// answer again (`Idempotent-Replayed: true`) and writes nothing; the key with another request,
/// or while its first request runs, is refused; else the write's answer is kept for 24 hours.
struct Idempotency: PipelineStage {
    let keys: IdempotencyKeys
    let clock: any StackDay.Clock

    /// The methods that write, which an `Idempotency-Key` applies to.
    static let writeMethods: Set<String> = ["POST", "PUT", "PATCH", "DELETE"]

    func answer(_ exchange: Exchange, next: (Exchange) throws -> HTTPResponse) throws -> HTTPResponse {
        guard let user = exchange.user else { return try next(exchange) }
        return try once(exchange.request, user: user) { try next(exchange) }
    }

    /// Runs `write` for `user` at most once per `Idempotency-Key` (the `/v1` stage, and the web
    /// app's form posts, which a page offline sends again once it is back).
    func once(_ request: HTTPRequest, user: String, _ write: () throws -> HTTPResponse) throws -> HTTPResponse {
        guard Self.writeMethods.contains(request.method), let key = request.idempotencyKey else { return try write() }
        guard IdempotencyKeys.isValid(key) else { throw APIError.badRequest("Idempotency-Key must be 1 to 255 visible ASCII characters") }
        switch keys.claim(key, user: user, request: request, now: clock.now) {
        case .replay(var answer):
            answer.headers.append(("Idempotent-Replayed", "true"))
            return answer
        case .refuse(let code, let message):
            return .error(message, code: code)
        case .run:
            do {
                let answer = try write()
                keys.finish(key, user: user, answer: answer)
                return answer
            } catch {
                keys.finish(key, user: user, answer: ErrorMapping.response(for: error))
                throw error
            }
        }
    }
}
