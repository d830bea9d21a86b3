import StackDay

/// What is answered to anyone before any limit: `GET /healthz` and `GET /openapi.json`; and a
/// path that is not valid percent-encoded UTF-8 is refused here.
struct OpenEndpoints: PipelineStage {
    /// The API document, made on first use.
    let document: @Sendable () throws -> JSONValue

    func answer(_ exchange: Exchange, next: (Exchange) throws -> HTTPResponse) throws -> HTTPResponse {
        guard let parts = exchange.segments else { throw APIError.badRequest("the path is not valid percent-encoded UTF-8") }
        switch parts {
        case ["healthz"]:
            guard exchange.request.method == "GET" else { throw APIError.methodNotAllowed(exchange.request.method) }
            return .text("ok\n")
        case ["openapi.json"]:
            guard exchange.request.method == "GET" else { throw APIError.methodNotAllowed(exchange.request.method) }
            return .json(try document())
        default:
            return try next(exchange)
        }
    }
}
