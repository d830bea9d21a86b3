/// Limits on one call into a policy. The defaults are far beyond what an honest policy needs.
public struct PolicyBudget: Hashable, Sendable {
    /// Lua VM instructions per call (a whole range of days is one call).
    public var instructions: Int
    /// Bytes a call may allocate beyond what the state already held.
    public var memoryBytes: Int

    public init(instructions: Int = 200_000_000, memoryBytes: Int = 64 << 20) {
        self.instructions = instructions
        self.memoryBytes = memoryBytes
    }

    public static let standard = PolicyBudget()
}
