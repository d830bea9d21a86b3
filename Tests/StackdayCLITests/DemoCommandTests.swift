import Foundation
import Testing
import StackDayTestSupport

let stackday = Subprocess(product: "stackday")

/// Runs `stackday` in an English locale unless `environment` says otherwise.
func runStackday(_ arguments: [String], environment: [String: String] = [:], input: String? = nil, timeout: Double? = nil) throws -> Subprocess.Result {
    let locale = ["LC_ALL": "", "LC_MESSAGES": "", "LANG": "C.UTF-8"]
    return try stackday.run(arguments, environment: locale.merging(environment) { $1 }, input: input, timeout: timeout)
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
