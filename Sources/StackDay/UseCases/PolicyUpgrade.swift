/// What `UpgradePolicy` did: the script now current and each habit it moved or left.
public struct PolicyUpgrade: Sendable {
    public let script: PolicyScript
    /// Habits given a new revision running `script`.
    public let upgraded: [Habit]
    /// Active habits using the policy that already ran `script`.
    public let current: [Habit]

    public init(script: PolicyScript, upgraded: [Habit], current: [Habit]) {
        self.script = script
        self.upgraded = upgraded
        self.current = current
    }
}
