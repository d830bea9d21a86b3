import StackDay

/// A policy that failed, named with its file and (when Lua knows it) the line.
public struct PolicyError: PolicyProblem, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// A syntax or run-time error in the script.
        case script
        /// The call ran out of its instruction budget.
        case instructionBudget
        /// The call ran out of its memory budget.
        case memoryBudget
        /// The call (or its request) ran out of CPU time.
        case timeBudget
        /// The policy answered with a value of the wrong kind.
        case wrongAnswer
        /// The file could not be read, or no policy has the name.
        case unavailable
        /// The parameters a habit gives the policy were refused.
        case parameters

        /// Whether the call ran out of a budget (instructions, memory or time).
        public var isBudget: Bool { self == .instructionBudget || self == .memoryBudget || self == .timeBudget }
    }

    public let policy: String
    public let file: String?
    public let line: Int?
    public let kind: Kind
    public let message: String

    public init(policy: String, file: String?, line: Int?, kind: Kind, message: String) {
        self.policy = policy
        self.file = file
        self.line = line
        self.kind = kind
        self.message = message
    }

    public var isBudget: Bool { kind.isBudget }

    public var description: String {
        var location = ""
        if let file {
            location = " (\(file)" + (line.map { ":\($0)" } ?? "") + ")"
        }
        switch kind {
        case .instructionBudget, .memoryBudget, .timeBudget:
            return "policy \(policy) \(message)\(location)"
        default:
            return "policy \(policy)\(location): \(message)"
        }
    }
}
