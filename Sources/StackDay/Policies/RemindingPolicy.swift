/// A schedule or progress policy that may say whether a reminder goes out on a day still open
/// (`remind(day, progress, params)` in Lua: "only if less than half done").
public protocol RemindingPolicy {
    /// Whether to remind on `day`, whose progress so far is `progress` (0…1); nil when the policy
    /// has no say (it defines no `remind`).
    func remind(day: LocalDay, progress: Double) throws -> Bool?
}
