/// What a sync change is a change of. Cases are in the order live changes are applied: a script
/// before the revisions that name it, a habit before its revisions, records and skips.
public enum SyncKind: String, Sendable, CaseIterable, Comparable {
    case script, habit, revision, completion, skip

    var order: Int { Self.allCases.firstIndex(of: self)! }

    public static func < (lhs: SyncKind, rhs: SyncKind) -> Bool { lhs.order < rhs.order }
}
