/// A habit names a policy that cannot serve it.
public enum PolicyResolutionError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownPolicy(name: String, role: PolicyRole, known: [String])

    public var description: String {
        switch self {
        case .unknownPolicy(let name, let role, let known):
            return "unknown \(role.rawValue) policy '\(name)'; known: \(known.joined(separator: ", "))"
        }
    }
}
