/// Parameters a policy's schema refuses; the message names the policy and the parameter.
public enum PolicyParameterError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknown(policy: String, name: String, suggestion: String?, known: [String])
    /// A required parameter not given; `description` and `example` from its schema say what to give.
    case missing(policy: String, name: String, description: String = "", example: JSONValue? = nil)
    case invalid(policy: String, name: String, reason: String)

    /// The parameter named.
    public var name: String {
        switch self {
        case .unknown(_, let name, _, _), .missing(_, let name, _, _), .invalid(_, let name, _): name
        }
    }

    public var description: String {
        switch self {
        case .unknown(let policy, let name, let suggestion?, _):
            return "unknown parameter '\(name)' for \(policy); did you mean '\(suggestion)'?"
        case .unknown(let policy, let name, nil, let known):
            return "unknown parameter '\(name)' for \(policy); " + (known.isEmpty ? "it takes no parameters" : "it takes " + known.joined(separator: ", "))
        case .missing(let policy, let name, let description, let example):
            let what = description.isEmpty ? "" : " (\(description.prefix(1).lowercased() + description.dropFirst()))"
            let sample = example.map { "; for example \(JSONValue.object([name: $0]).jsonText)" } ?? ""
            return "\(policy) needs parameter '\(name)'\(what)\(sample)"
        case .invalid(let policy, _, let reason):
            return "parameters for \(policy): \(reason)"
        }
    }
}
