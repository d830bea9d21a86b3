import StackDay

/// What `PolicyChecker` found: the policy loaded in the sandbox and declared its roles (else
/// there is no report: loading throws), how many of its examples passed, and each failure, named.
public struct PolicyCheckReport: Sendable {
    public let policy: String
    public let file: String
    public let roles: [PolicyRole]
    /// The examples the policy declares.
    public let examples: Int
    /// Those that gave the answer they state.
    public let passed: Int
    public let failures: [String]

    public var isSuccess: Bool { failures.isEmpty }
}
