import StackDay

/// A malformed import file, named with its file, line and column: `invalid_input`, like any
/// value refused on its way in.
public struct ImportFormatError: CodedError, Equatable, Sendable, CustomStringConvertible {
    public var code: ErrorCode { .invalidInput }

    public let file: String
    public let line: Int?
    public let column: Int?
    public let message: String

    public init(file: String, line: Int?, column: Int?, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        var location = file
        if let line { location += ":\(line)" }
        if let column { location += ":\(column)" }
        return "\(location): \(message)"
    }
}
