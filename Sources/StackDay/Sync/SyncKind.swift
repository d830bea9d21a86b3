/// What a sync change is a change of. Cases are in the order live changes are applied: a script
/// before the revisions that name it, a habit before its revisions, records and skips, then a
/// group (of habits) before its revisions.
public enum SyncKind: String, Sendable, CaseIterable, Comparable {
    case script, habit, revision, completion, skip, group, groupRevision

    /// Whether the kind is a numbered revision of a parent (a habit's or a group's rules).
    public var isRevision: Bool { self == .revision || self == .groupRevision }

    /// The kind of a revision kind's parent.
    public var parentKind: SyncKind? {
        switch self {
        case .revision, .completion, .skip: .habit
        case .groupRevision: .group
        case .script, .habit, .group: nil
        }
    }

    var order: Int { Self.allCases.firstIndex(of: self)! }

    public static func < (lhs: SyncKind, rhs: SyncKind) -> Bool { lhs.order < rhs.order }
}
