import StackDay

/// What `PolicyChecker` found: how many checks passed and each failure, named.
public struct PolicyCheckReport: Sendable {
    public let policy: String
    public let file: String
    public let roles: [PolicyRole]
    public let passed: Int
    public let failures: [String]

    public var isSuccess: Bool { failures.isEmpty }
}
