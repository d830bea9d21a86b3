import StackDay

/// A script the install checks refused: `{"policy", "failures": […]}`, with the error body's
/// `error` beside them (`policy_failed`).
public struct RefusalView: JSONView {
    public let refusal: PolicyRefusal

    public init(refusal: PolicyRefusal) {
        self.refusal = refusal
    }

    public var message: String {
        let count = refusal.failures.count
        return "policy \(refusal.policy) was not installed: \(count) check\(count == 1 ? "" : "s") failed"
    }

    public var json: JSONValue {
        .object([
            "policy": .string(refusal.policy), "failures": .array(refusal.failures.map(JSONValue.string)),
            "error": ErrorView(code: .policyFailed, message: message).json.objectValue?["error"] ?? .null,
        ])
    }
}
