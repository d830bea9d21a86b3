/// CORS for the origins `--allow-origin` names: their answers say so (`Access-Control-Allow-Origin`,
/// `Vary`, the headers a script may read), and a preflight (`OPTIONS`) is answered 204 with what
/// may be sent; with TLS, every answer carries `Strict-Transport-Security`.
struct CrossOrigin: PipelineStage {
    let allowedOrigins: [String]
    let strictTransportSecurity: Bool

    func answer(_ exchange: Exchange, next: (Exchange) throws -> HTTPResponse) throws -> HTTPResponse {
        let request = exchange.request
        let allowed = request.origin.flatMap { allowedOrigins.contains($0) ? $0 : nil }
        var response: HTTPResponse
        if request.method == "OPTIONS", exchange.segments != nil {
            response = HTTPResponse(status: 204, contentType: "text/plain; charset=utf-8", body: [])
            response.headers.append(("Allow", "GET, POST, PUT, PATCH, DELETE, OPTIONS"))
            if allowed != nil {
                response.headers += [("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE"),
                                     ("Access-Control-Allow-Headers", "Authorization, Content-Type, If-None-Match, Idempotency-Key, X-Request-Id"),
                                     ("Access-Control-Max-Age", "600")]
            }
        } else {
            response = try next(exchange)
        }
        if strictTransportSecurity { response.headers.append(("Strict-Transport-Security", "max-age=31536000")) }
        if let allowed {
            response.headers += [("Access-Control-Allow-Origin", allowed), ("Vary", "Origin"), ("Access-Control-Expose-Headers", "ETag, Location, X-Request-Id, Retry-After")]
        }
        return response
    }
}
