/// A proxy named by `--trusted-proxy` says who the client is (`X-Forwarded-For`, its last
/// address) and whether it came over TLS (`X-Forwarded-Proto`); once one is named, nobody else
/// is believed about TLS.
struct TrustedProxy: PipelineStage {
    let proxies: [String]

    func answer(_ exchange: Exchange, next: (Exchange) throws -> HTTPResponse) throws -> HTTPResponse {
        if proxies.contains(exchange.request.address) {
            if let client = exchange.request.forwardedFor?.split(separator: ",").last?.trimmingCharacters(in: .whitespaces), !client.isEmpty {
                exchange.request.address = client
            }
        } else if !proxies.isEmpty {
            exchange.request.forwardedProto = nil
        }
        return try next(exchange)
    }
}
