/// Stages composed in order around an endpoint: the first stage sees the request first and the
/// answer last.
struct Pipeline: Sendable {
    let stages: [any PipelineStage]
    let endpoint: @Sendable (Exchange) throws -> HTTPResponse

    init(_ stages: [any PipelineStage], endpoint: @escaping @Sendable (Exchange) throws -> HTTPResponse) {
        self.stages = stages
        self.endpoint = endpoint
    }

    func answer(_ exchange: Exchange) throws -> HTTPResponse {
        try answer(exchange, from: stages.startIndex)
    }

    private func answer(_ exchange: Exchange, from index: Int) throws -> HTTPResponse {
        guard index < stages.endIndex else { return try endpoint(exchange) }
        return try stages[index].answer(exchange) { try answer($0, from: index + 1) }
    }
}
