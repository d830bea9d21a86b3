import CLuaHost
import Foundation

/// The process side of a policy runner: `stackday policy-runner` re-executed by a server, reading
/// calls on standard input and answering on standard output until its input ends.
public enum PolicyRunner {
    /// The command a pool starts a runner with: the executable's first argument.
    public static let command = "policy-runner"

    /// The arguments after `command` that carry `budget`.
    static func arguments(for budget: PolicyBudget) -> [String] {
        ["\(budget.instructions)", "\(budget.memoryBytes)", "\(budget.cpuMilliseconds)", "\(budget.stateBytes)"]
    }

    /// The address space a runner may map: room for the runtime and a Lua state at its bound.
    static let addressSpaceBytes: Int64 = 4 << 30
    /// CPU seconds one runner may spend in all before it is ended and replaced.
    static let lifetimeCPUSeconds: Int64 = 3600

    /// Runs a runner with the budget `arguments` (what `arguments(for:)` made) carry; returns
    /// the exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        let numbers = arguments.compactMap(Int.init)
        guard numbers.count == 4 else {
            FileHandle.standardError.write(Data("stackday policy-runner: started by a server, not by hand\n".utf8))
            return 64
        }
        let budget = PolicyBudget(instructions: numbers[0], memoryBytes: numbers[1], cpuMilliseconds: numbers[2], stateBytes: numbers[3])
        let service: PolicyRunnerService
        do {
            service = try PolicyRunnerService(budget: budget)
        } catch {
            FileHandle.standardError.write(Data("stackday policy-runner: \(error)\n".utf8))
            return 70
        }
        _ = sd_runner_confine(addressSpaceBytes, lifetimeCPUSeconds)
        service.serve(input: 0, output: 1)
        return 0
    }
}
