/// What a request has left of its policy budget, handed to another process to spend for it.
public struct RequestShare: Hashable, Sendable {
    /// Which of a request's budgets ran out.
    public enum Spent: UInt8, Sendable {
        case work = 1
        case time = 2
    }

    public var instructions: Int
    public var cpuNanoseconds: Int
    /// The request's whole budgets, which budget errors name.
    public var budget: PolicyRequestBudget

    public init(instructions: Int, cpuNanoseconds: Int, budget: PolicyRequestBudget) {
        self.instructions = instructions
        self.cpuNanoseconds = cpuNanoseconds
        self.budget = budget
    }
}
