import StackDay

/// A request whose fields cannot become use-case input: a value of the wrong type, two options
/// that exclude each other, a field the operation does not take. The command line reports it as a
/// usage error (exit 64), the API as 400 `bad_request`.
public struct RequestError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
