import StackDayLua

/// All of one request's policy calls share one budget of work and CPU time (`--request-cpu-ms`).
struct PolicyBudgetStage: PipelineStage {
    let budget: PolicyRequestBudget

    func answer(_ exchange: Exchange, next: (Exchange) throws -> HTTPResponse) throws -> HTTPResponse {
        try budget.run { try next(exchange) }
    }
}
