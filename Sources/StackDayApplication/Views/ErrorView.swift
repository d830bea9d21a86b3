import StackDay

/// A failure as every surface reports it: `{"error": {"code", "message"}}`, the code stable
/// (`ErrorCode`, listed in docs/json.md).
public struct ErrorView: JSONView {
    public let code: ErrorCode
    public let message: String

    public init(code: ErrorCode, message: String) {
        self.code = code
        self.message = message
    }

    /// The view of an error a request threw: a `RequestError` is `usage` on the command line and
    /// `bad_request` over HTTP (`requestCode`); any other error has the code `ErrorCode.of` gives.
    public init(_ error: any Error, requestCode: ErrorCode) {
        switch error {
        case let error as RequestError: self.init(code: requestCode, message: error.message)
        case let failure as HabitFailure: self.init(code: ErrorCode.of(failure), message: failure.message)
        default:
            let code = ErrorCode.of(error)
            self.init(code: code, message: "\(error)")
        }
    }

    public var json: JSONValue { ErrorCode.body(code, message) }
}
