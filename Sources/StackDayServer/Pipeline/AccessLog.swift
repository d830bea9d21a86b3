import Foundation
import StackDay
import StackDayExchange

/// One access line a request and its metrics (in flight, by route and status, how long): time,
/// client address, request id, method, path (never the query), status, bytes, milliseconds, user;
/// as text or as one JSON object.
struct AccessLog: PipelineStage {
    let format: APIOptions.LogFormat
    let metrics: Metrics
    let log: @Sendable (String) -> Void

    func answer(_ exchange: Exchange, next: (Exchange) throws -> HTTPResponse) throws -> HTTPResponse {
        metrics.begin()
        let response = try next(exchange)
        let seconds = Date().timeIntervalSince(exchange.started)
        metrics.end(route: Self.routeLabel(exchange.request), status: response.status, seconds: seconds)
        log(line(exchange, response, seconds: seconds))
        return response
    }

    /// The route a request reached, as its pattern (`/v1/habits/:name`), for the metrics' labels.
    static func routeLabel(_ request: HTTPRequest) -> String {
        guard let parts = Router<ServerRoute>.segments(of: request.path) else { return "invalid" }
        if request.method == "OPTIONS", !ServerRoute.isAPI(parts) { return "preflight" }
        if parts == ["healthz"] || parts == ["openapi.json"] { return "/" + parts[0] }
        return ServerRoute.label(request.method, parts)
    }

    /// `path` with a calendar feed's token cut to its first six characters (`/v1/feeds/fd_1a2…`):
    /// the token is the feed's only credential, and logs travel further than the store.
    static func redacted(_ path: String) -> String {
        guard path.contains("fd_") else { return path }
        return path.split(separator: "/", omittingEmptySubsequences: false).map { part in
            part.hasPrefix("fd_") && part.count > 6 ? part.prefix(6) + "…" : part
        }.joined(separator: "/")
    }

    func line(_ exchange: Exchange, _ response: HTTPResponse, seconds: Double) -> String {
        let request = exchange.request
        let path = Self.redacted(PercentDecoding.decoded(request.path) ?? request.path)
        let milliseconds = Int((seconds * 1000).rounded())
        let when = InstantText.format(exchange.started)
        switch format {
        case .json:
            return JSONValue.object([
                "time": .string(when), "address": .string(request.address), "requestId": .string(exchange.requestID), "method": .string(request.method),
                "path": .string(path), "status": .number(Double(response.status)), "bytes": .number(Double(response.body.count)),
                "ms": .number(Double(milliseconds)), "user": exchange.user.map(JSONValue.string) ?? .null,
            ]).jsonText
        case .text:
            return "\(when) \(request.address.isEmpty ? "-" : request.address) \(exchange.requestID) \(Self.loggable(request.method)) \(Self.loggable(path)) "
                + "\(response.status) \(response.body.count)B \(milliseconds)ms \(Self.loggable(exchange.user ?? "-"))"
        }
    }

    /// `text` with control characters (and backslashes) written as escapes: a path or name sent
    /// by a client cannot start a new log line or send a terminal escape.
    static func loggable(_ text: String) -> String {
        ControlEscapes.escaped(text, backslashes: true)
    }
}
