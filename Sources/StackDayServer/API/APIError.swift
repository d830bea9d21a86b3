import StackDay

/// A request the API refuses: its code, the code's status, and the message of the error body.
struct APIError: Error {
    let code: ErrorCode
    let message: String
    /// For a 405: the methods the path takes (the `Allow` header).
    var allowed: [String] = []

    var status: Int { StackDayAPI.status(of: code) }

    static func badRequest(_ message: String) -> APIError { APIError(code: .badRequest, message: message) }
    static let unauthorized = APIError(code: .unauthorized, message: "missing or unknown token: send Authorization: Bearer TOKEN")
    static func notFound(_ message: String) -> APIError { APIError(code: .notFound, message: message) }
    static func methodNotAllowed(_ method: String, allowed: [String] = ["GET"]) -> APIError {
        APIError(code: .methodNotAllowed, message: "\(method) is not allowed here (\(allowed.joined(separator: ", ")) is)", allowed: allowed)
    }
    static let tooLarge = APIError(code: .bodyTooLarge, message: "the request body is over the server's limit")
}
