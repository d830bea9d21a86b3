/// A body over `--max-body` (the server kept none of it) is answered 413.
struct BodyLimit: PipelineStage {
    func answer(_ exchange: Exchange, next: (Exchange) throws -> HTTPResponse) throws -> HTTPResponse {
        if exchange.request.bodyTooLarge { throw APIError.tooLarge }
        return try next(exchange)
    }
}
