/// A rule naming a policy nothing has (`PolicyDirectory`): refused as a policy that fails to load
/// is (`policy_failed`), naming the closest known name and never a path.
public struct UnknownPolicy: PolicyProblem, Equatable, Sendable, CustomStringConvertible {
    public let name: String
    public let suggestion: String?

    public init(name: String, suggestion: String?) {
        self.name = name
        self.suggestion = suggestion
    }

    public var description: String {
        "policy \(name): no such policy" + DidYouMean.hint(suggestion) + " (\(UseCaseError.notAmong))"
    }
}
