/// Limits on one call into a policy. The defaults are far beyond what an honest policy needs.
public struct PolicyBudget: Hashable, Sendable {
    /// Work per call (a whole range of days is one call), in Lua VM instructions: native work a
    /// library call does (pattern steps, repetitions, elements moved) and every two bytes the call
    /// allocates count as one instruction each.
    public var instructions: Int
    /// Bytes a call may allocate beyond what the state already held.
    public var memoryBytes: Int
    /// Thread CPU time per call, in milliseconds: enforced by a timer on the thread's CPU clock, so
    /// a call ends on time whatever it spends it on (0: no deadline).
    public var cpuMilliseconds: Int
    /// Bytes the whole state (every policy loaded into it, and what they keep) may hold.
    public var stateBytes: Int

    public init(instructions: Int = 200_000_000, memoryBytes: Int = 64 << 20, cpuMilliseconds: Int = 500, stateBytes: Int = 96 << 20) {
        self.instructions = instructions
        self.memoryBytes = memoryBytes
        self.cpuMilliseconds = cpuMilliseconds
        self.stateBytes = stateBytes
    }

    public static let standard = PolicyBudget()
}
