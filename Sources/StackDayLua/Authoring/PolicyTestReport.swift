import StackDay

/// What `policy test` found for one policy: every case run, each failure with the file and line
/// of its case and what was expected and got, the lines traced, and (when asked) the lines of the
/// policy no case ran.
public struct PolicyTestReport: Sendable {
    /// One case's result.
    public struct Outcome: Sendable {
        public let testCase: PolicyCase
        /// Nil when the case passed; else what it gave against what it states, or the error it raised.
        public let failure: String?
        /// What the policy wrote with `trace()` while the case ran.
        public let trace: [PolicyTraceLine]

        public var passed: Bool { failure == nil }
    }

    public let policy: String
    public let file: String
    /// The test file beside the policy that was read, if any.
    public let testFile: String?
    public let outcomes: [Outcome]
    /// With coverage: the lines holding code in the policy's functions, and those no case ran.
    public let coverable: Set<Int>?
    public let uncovered: [Int]?

    public var passed: Int { outcomes.filter(\.passed).count }
    public var failures: [Outcome] { outcomes.filter { !$0.passed } }
    public var isSuccess: Bool { failures.isEmpty }
}
