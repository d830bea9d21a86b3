/// `--rate-limit N`: each user at most N requests a minute, whichever token carries them (429
/// with `Retry-After` beyond).
struct RateLimit: PipelineStage {
    let throttle: Throttle?

    func answer(_ exchange: Exchange, next: (Exchange) throws -> HTTPResponse) throws -> HTTPResponse {
        guard let throttle, let user = exchange.user else { return try next(exchange) }
        if let wait = throttle.wait(for: user) {
            var answer = HTTPResponse.error("over \(throttle.limit) requests a minute; try again in \(wait) s", code: .tooManyRequests)
            answer.headers.append(("Retry-After", String(wait)))
            return answer
        }
        throttle.record(user)
        return try next(exchange)
    }
}
