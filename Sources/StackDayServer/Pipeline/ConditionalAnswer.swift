import StackDay

/// A read is versioned by the user's change counter, the day, the caller's device, the path and
/// the query: its answer carries that `ETag` (a client asking again with `If-None-Match` gets
/// 304), and, unless the server runs with `--no-cache`, is kept until the user's next write
/// (`AnswerCache`).
struct ConditionalAnswer: PipelineStage {
    let answers: AnswerCache?
    let metrics: Metrics

    func answer(_ exchange: Exchange, next: (Exchange) throws -> HTTPResponse) throws -> HTTPResponse {
        let request = exchange.request
        guard request.method == "GET", let account = exchange.account, let context = exchange.context,
              let count = try context.store.changeCount() else { return try next(exchange) }
        let query = request.query.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
        // The device a token is of is part of the key: some answers are the caller's own (a
        // device sees only the push subscriptions it made).
        let key = [account.name, exchange.device?.uuidString ?? "", request.path, query, context.today.iso, account.timeZone,
                   account.dayStart.description, String(count)].joined(separator: "\u{1}")
        let etag = "W/\"" + Self.fnv(key) + "\""
        if let unchanged = Self.unchanged(request, etag: etag, contentType: "application/json") { return unchanged }
        var response: HTTPResponse
        if let kept = answers?.answer(for: key) {
            metrics.keptAnswer(served: true)
            response = kept
        } else {
            response = try next(exchange)
            if response.status == 200 {
                answers?.keep(response, for: key)
                metrics.keptAnswer(served: false)
            }
        }
        return response.status == 200 ? Self.versioned(response, etag: etag) : response
    }

    /// 64-bit FNV-1a of `text`, as 16 hex digits.
    static func fnv(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(format: "%016llx", hash)
    }

    /// A 304 for a request whose `If-None-Match` names `etag` (or `*`); nil otherwise.
    static func unchanged(_ request: HTTPRequest, etag: String, contentType: String) -> HTTPResponse? {
        guard request.ifNoneMatch?.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag || $0 == "*" }) == true else {
            return nil
        }
        return versioned(HTTPResponse(status: 304, contentType: contentType, body: []), etag: etag)
    }

    /// `response` with its version: a client may keep it and ask again with `If-None-Match`.
    static func versioned(_ response: HTTPResponse, etag: String) -> HTTPResponse {
        var versioned = response
        versioned.headers += [("ETag", etag), ("Cache-Control", "private, no-cache")]
        return versioned
    }
}
