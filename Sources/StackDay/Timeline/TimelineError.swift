/// A policy answered for a different number of days than it was asked about.
public enum TimelineError: Error, Equatable, Sendable, CustomStringConvertible {
    case wrongAnswerCount(expected: Int, due: Int, progress: Int)

    public var description: String {
        switch self {
        case .wrongAnswerCount(let expected, let due, let progress):
            return "policies answered for the wrong number of days: expected \(expected), schedule gave \(due), progress gave \(progress)"
        }
    }
}
