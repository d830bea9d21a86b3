/// A schedule in words that no phrase of the grammar (docs/policies.md § Schedules in words) reads.
public struct SchedulePhraseError: CodedError, Equatable, Sendable, CustomStringConvertible {
    /// The text as given.
    public let phrase: String
    /// The documented phrases closest to it, best first (at most three).
    public let suggestions: [String]
    /// Why a phrase the grammar read cannot be a schedule (`February has no 30th`); nil when it read nothing.
    public let reason: String?

    public var code: ErrorCode { .invalidInput }

    public var description: String {
        if let reason { return "schedule '\(phrase)': \(reason)" }
        let closest = suggestions.isEmpty ? "" : "; did you mean " + suggestions.map { "'\($0)'" }.joined(separator: " or ") + "?"
        return "'\(phrase)' is not a schedule stackday understands\(closest) (phrases: docs/policies.md; policies: stackday policy list)"
    }
}
