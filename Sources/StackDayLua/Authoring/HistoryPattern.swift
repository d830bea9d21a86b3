import StackDay

/// A compact streak history: `Y` met, `N` missed, `-` skipped, `.` not due (`P` pending today).
public enum HistoryPattern {
    public struct Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        public let pattern: String
        public let position: Int
        public var description: String {
            "history '\(pattern)' has an unknown mark at position \(position); use Y (met), N (missed), - (skipped), . (not due), P (pending)"
        }
    }

    /// The outcomes the pattern stands for, one per character.
    public static func outcomes(_ pattern: String) throws(Error) -> [StreakOutcome] {
        var outcomes: [StreakOutcome] = []
        for (index, mark) in pattern.enumerated() {
            switch mark {
            case "Y", "y": outcomes.append(StreakOutcome(status: .completed, isDue: true, total: 1, progress: 1))
            case "N", "n": outcomes.append(StreakOutcome(status: .missed, isDue: true, total: 0, progress: 0))
            case "-": outcomes.append(StreakOutcome(status: .skipped, isDue: true, total: 0, progress: 0))
            case ".": outcomes.append(StreakOutcome(status: .notDue, isDue: false, total: 0, progress: 0))
            case "P", "p": outcomes.append(StreakOutcome(status: .pending, isDue: true, total: 0, progress: 0))
            default: throw Error(pattern: pattern, position: index + 1)
            }
        }
        return outcomes
    }
}
