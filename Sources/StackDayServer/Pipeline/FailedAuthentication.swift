import StackDay

/// Guessing credentials is bounded per address: each 401 under `/v1`, `/session` and `/pair` (a
/// wrong token, sign-in or pairing code) is counted, and an address with too many in the last
/// minute (`--auth-failures`) is answered 429 with `Retry-After`, whatever it sends there, until
/// its oldest failure is a minute old.
struct FailedAuthentication: PipelineStage {
    let throttle: Throttle

    func answer(_ exchange: Exchange, next: (Exchange) throws -> HTTPResponse) throws -> HTTPResponse {
        guard let parts = exchange.segments, parts.first == "v1" || parts == ["session"] || parts == ["pair"] else { return try next(exchange) }
        let address = exchange.request.address
        if let wait = throttle.wait(for: address) {
            var answer = HTTPResponse.error("too many failed sign-ins from this address; try again in \(wait) s", code: .tooManyRequests)
            answer.headers.append(("Retry-After", String(wait)))
            return answer
        }
        do {
            let response = try next(exchange)
            if response.status == 401 { throttle.record(address) }
            return response
        } catch {
            if StackDayAPI.status(of: ErrorMapping.code(of: error)) == 401 { throttle.record(address) }
            throw error
        }
    }
}
