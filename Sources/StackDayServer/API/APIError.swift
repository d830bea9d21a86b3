/// A request the API refuses: the status and the message of `{"error": …}`.
struct APIError: Error {
    let status: Int
    let message: String

    static func badRequest(_ message: String) -> APIError { APIError(status: 400, message: message) }
    static let unauthorized = APIError(status: 401, message: "missing or unknown token: send Authorization: Bearer TOKEN")
    static func notFound(_ message: String) -> APIError { APIError(status: 404, message: message) }
    static func methodNotAllowed(_ method: String) -> APIError { APIError(status: 405, message: "\(method) is not allowed here") }
    static let tooLarge = APIError(status: 413, message: "the request body is over the server's limit")
}
