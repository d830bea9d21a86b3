import StackDay

/// One policy a user can name, as `policy list`, `GET /v1/policies` and the policies page show it:
/// `{"name", "source", "sha256", "shortHash", "roles", "description", "inUse"}`, with `sharedBy`
/// for a shared script and `error` for one that does not load. `inUse` is false for a script the
/// name does not resolve to (a folder file an installed script shadows, a built-in overridden).
/// Never a path: a folder's file is shown by the command line from `policy.file`.
public struct PolicyEntryView: JSONView {
    public let policy: ResolvedPolicy
    /// What the script declares; nil when it failed to load (`error`).
    public let listing: PolicyListing?
    public let error: String?
    public let inUse: Bool

    public init(policy: ResolvedPolicy, listing: PolicyListing?, error: String?, inUse: Bool) {
        self.policy = policy
        self.listing = listing
        self.error = error
        self.inUse = inUse
    }

    /// The roles it serves, in role order.
    public var roles: [PolicyRole] { PolicyRole.allCases.filter { listing?.roles.contains($0) == true } }

    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "name": .string(policy.name), "source": .string(policy.source.rawValue), "sha256": .string(policy.script.sha256),
            "shortHash": .string(policy.script.shortHash), "roles": .array(roles.map { .string($0.rawValue) }),
            "description": .string(listing?.description ?? ""), "inUse": .bool(inUse),
        ]
        if let sharedBy = policy.sharedBy { object["sharedBy"] = .string(sharedBy) }
        if let error { object["error"] = .string(error) }
        return .object(object)
    }
}
