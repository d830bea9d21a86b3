/// An error that comes from a policy rather than from the store: a name that resolves to no
/// script, a script that is refused, or one that fails or runs out of its budget. A service
/// answers it as the user's mistake (their rules), never as its own failure.
public protocol PolicyProblem: Error {
    /// Whether the policy ran out of a budget (its script may be fine, and the input too large).
    var isBudget: Bool { get }
}

extension PolicyProblem {
    public var isBudget: Bool { false }
}
