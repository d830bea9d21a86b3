/// Where a policy name was found, in the order `PolicyDirectory` looks (docs/policies.md,
/// "Where a name is found").
public enum PolicySource: String, Sendable, CaseIterable, Comparable {
    /// A script the user installed (`policy install`, `PUT /v1/policies/{name}`, the editor).
    case installed
    /// `NAME.lua` in the policy folder of the command line (or of the server's administrator).
    case folder
    /// A script the server's administrator published to this user or to every user.
    case published
    /// A script another user shared with this user.
    case shared
    /// A policy compiled into this binary.
    case builtIn = "built-in"
    /// A script some habit of this user already runs, stored under that name, that nothing above
    /// has any more (a folder file since removed, a script synced from another device).
    case pinned

    /// The order names are looked up in: the first source that has a name wins.
    public var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    public static func < (a: PolicySource, b: PolicySource) -> Bool { a.rank < b.rank }
}
