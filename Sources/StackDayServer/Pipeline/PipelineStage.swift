/// One step of answering a request (hummingbird's middleware, in a synchronous server): it answers
/// the exchange itself, or hands it to `next` (the stages after it) and may change the answer.
protocol PipelineStage: Sendable {
    func answer(_ exchange: Exchange, next: (Exchange) throws -> HTTPResponse) throws -> HTTPResponse
}
