/// A numbered revision of a parent's rules (a habit's, a group's): append-only, numbered 1, 2,
/// 3, … without a gap, merged alike whatever the parent (`SyncMerger`).
public protocol SyncNumbered: SyncEntityValue {
    /// The parent's key.
    var parent: String { get }
    var number: Int64 { get }
    /// The scripts the revision pins.
    var pins: [String] { get }
    /// Whether two revisions hold the same rules: every field equal but the number, a script pin
    /// left empty on one side counting as equal (it is filled in when the script arrives).
    func sameRules(as other: Self) -> Bool
    /// This revision with the pins `other` has and it lacks; nil when it lacks none of them.
    func filling(from other: Self) -> Self?
    /// The same rules under another number.
    func numbered(_ number: Int64) -> Self
    /// The revision as an entity.
    var entity: SyncEntity { get }
}
