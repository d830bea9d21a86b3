import Foundation
import Testing
import StackDayTestSupport
@testable import stackday

let stackday = Subprocess(product: "stackday")

/// Runs `stackday` in an English locale unless `environment` says otherwise: in this process
/// (`Stackday.run` with its standard streams and environment in memory), or as a process of its
/// own for what only a process shows (a `timeout`, `serve`, policy runner processes) or needs (`sync`, which waits on a task of its
/// own: in the test process it could wait for the threads the tests hold).
func runStackday(_ arguments: [String], environment: [String: String] = [:], input: String? = nil, timeout: Double? = nil) throws -> Subprocess.Result {
    let locale = ["LC_ALL": "", "LC_MESSAGES": "", "LANG": "C.UTF-8"]
    let variables = locale.merging(environment) { $1 }
    guard timeout == nil, arguments.first != "policy-runner", !arguments.contains("serve"), !arguments.contains("sync"), !arguments.contains("--isolate-policies") else {
        return try stackday.run(arguments, environment: variables, input: input, timeout: timeout)
    }
    let io = TerminalIO(memory: input, environment: ProcessInfo.processInfo.environment.merging(variables) { $1 })
    let status = Stackday.run(arguments, io: io)
    io.flush()
    return Subprocess.Result(status: status, stdout: io.written.output, stderr: io.written.error)
}

@Suite("stackday demo")
struct DemoCommandTests {
    @Test("prints seed 000's sample report")
    func demo() throws {
        let result = try runStackday(["demo"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout.hasSuffix(SeedReport.korean + "\n"))
    }

    @Test("an unknown command is a usage error")
    func unknownCommand() throws {
        let result = try runStackday(["frobnicate"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: unknown command 'frobnicate'"))
        #expect(result.stdout == "")
    }
}
