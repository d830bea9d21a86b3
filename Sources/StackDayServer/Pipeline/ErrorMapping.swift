import StackDay
import StackDayApplication

/// Whatever the stages after it throw becomes an answer: `{"error": {"code", "message"}}` with
/// the code's status (`Allow` on a 405), counted in the metrics when a policy or the store failed.
struct ErrorMapping: PipelineStage {
    let metrics: Metrics

    func answer(_ exchange: Exchange, next: (Exchange) throws -> HTTPResponse) throws -> HTTPResponse {
        do {
            return try next(exchange)
        } catch let error as APIError {
            var response = HTTPResponse.error(error.message, code: error.code)
            if !error.allowed.isEmpty { response.headers.append(("Allow", error.allowed.joined(separator: ", "))) }
            return response
        } catch let error as RequestError {
            return .error(error.message, code: .badRequest)
        } catch {
            switch ErrorCode.of(error) {
            case .policyBudgetExceeded: metrics.policyFailed("budget")
            case .policyFailed: metrics.policyFailed("error")
            case .storeFailed: metrics.storeFailed()
            default: break
            }
            return Self.response(for: error)
        }
    }

    /// The code an error is answered with.
    static func code(of error: any Error) -> ErrorCode {
        switch error {
        case let error as APIError: error.code
        case is RequestError: .badRequest
        default: ErrorCode.of(error)
        }
    }

    /// The answer for an error a use case threw: its code (`ErrorCode.of`), that code's status, and
    /// the error's message.
    static func response(for error: any Error) -> HTTPResponse {
        let code = ErrorCode.of(error)
        switch error {
        case let failure as HabitFailure: return .error(failure.message, code: code)
        default: return .error(code == .storeFailed ? "the server could not answer: \(error)" : "\(error)", code: code)
        }
    }
}
