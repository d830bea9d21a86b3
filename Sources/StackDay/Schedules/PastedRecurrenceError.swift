/// Pasted calendar text that is not one day-level recurrence; the message says what to change.
public struct PastedRecurrenceError: CodedError, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    public var code: ErrorCode { .invalidParameter }

    init(_ description: String) { self.description = description }
}
