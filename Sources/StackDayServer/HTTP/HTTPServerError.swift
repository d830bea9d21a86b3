/// Why a server could not start.
public struct HTTPServerError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
