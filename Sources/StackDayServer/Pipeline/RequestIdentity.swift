/// Every answer carries `X-Request-Id`: the client's when it is a reasonable one (1–128 of
/// `A-Z a-z 0-9 . _ -`), else a new one.
struct RequestIdentity: PipelineStage {
    func answer(_ exchange: Exchange, next: (Exchange) throws -> HTTPResponse) throws -> HTTPResponse {
        exchange.requestID = Self.id(exchange.request.requestID)
        var response = try next(exchange)
        response.headers.append(("X-Request-Id", exchange.requestID))
        return response
    }

    static func id(_ given: String?) -> String {
        if let given, (1...128).contains(given.utf8.count),
           given.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D }) {
            return given
        }
        var generator = SystemRandomNumberGenerator()
        return String(format: "%016llx", generator.next() as UInt64)
    }
}
