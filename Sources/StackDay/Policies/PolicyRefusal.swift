/// A policy script refused before it is stored: it did not load, or its examples failed.
public struct PolicyRefusal: PolicyProblem, Equatable, Sendable, CustomStringConvertible {
    public let policy: String
    /// One line per failure, each naming the file and, where known, the line.
    public let failures: [String]

    public init(policy: String, failures: [String]) {
        self.policy = policy
        self.failures = failures
    }

    public var description: String {
        "policy \(policy) refused: " + failures.joined(separator: "; ")
    }
}
