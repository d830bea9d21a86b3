import Foundation
import Testing
import StackDay
import StackDayLua
import StackDayTestSupport

/// The calling thread's CPU time in seconds: what the budgets bound, whatever else the machine runs.
func threadCPUSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

@Suite("Lua host: every hostile script ends in its budget within a second, and the host goes on", .serialized)
struct HostileScriptTests {
    @Test(arguments: HostileScripts.budget)
    func endsOnItsBudget(_ script: HostileScripts.Script) throws {
        let fixture = try PolicyFixture(["hostile": script.source])
        let started = threadCPUSeconds()
        let error = try #require(policyError { _ = try fixture.isDue("hostile") }, "\(script) answered")
        let elapsed = threadCPUSeconds() - started
        #expect([.instructionBudget, .timeBudget, .memoryBudget].contains(error.kind), "\(error)")
        #expect(error.description.hasPrefix("policy hostile exceeded"), "\(error)")
        #expect(elapsed < 1, "\(script) took \(elapsed) s of CPU time")
        // The same host answers the next call, for another policy.
        #expect(try fixture.isDue("daily"))
    }

    @Test(arguments: HostileScripts.linear)
    func answersInLinearTime(_ script: HostileScripts.Script) throws {
        let fixture = try PolicyFixture(["hostile": script.source])
        let started = threadCPUSeconds()
        #expect(try fixture.isDue("hostile"), "\(script) answered wrongly")
        #expect(threadCPUSeconds() - started < 1, "\(script)")
    }

    @Test(arguments: HostileScripts.errorObjects)
    func errorObjectsReportedRaw(_ script: HostileScripts.Script) throws {
        let fixture = try PolicyFixture(["hostile": script.source])
        let started = threadCPUSeconds()
        let error = try #require(policyError { _ = try fixture.isDue("hostile") })
        #expect(error.kind == .script, "\(error)")
        #expect(error.message.contains("error {a table without a message}"), "\(error)")
        #expect(threadCPUSeconds() - started < 1)
    }

    @Test(arguments: HostileScripts.finalizers)
    func finalizersRefused(_ script: HostileScripts.Script) throws {
        let fixture = try PolicyFixture(["hostile": script.source])
        if let error = policyError({ _ = try fixture.isDue("hostile") }) {
            #expect(error.kind == .script, "\(error)")
            #expect(error.message.contains(script.setup.contains("__metatable") ? "__metatable" : "__"), "\(error.message)")
            #expect(["__gc", "__mode", "__metatable"].contains { error.message.contains($0) }, "\(error.message)")
        } else {
            Issue.record("\(script) was accepted")
        }
        // Collecting everything the script made runs no finalizer: the next calls answer at once.
        let started = threadCPUSeconds()
        for _ in 0..<3 { #expect(try fixture.isDue("daily")) }
        #expect(threadCPUSeconds() - started < 1)
    }

    @Test("an error message is cut to a few hundred bytes, saying so")
    func longMessageCut() throws {
        let fixture = try PolicyFixture(["hostile": HostileScripts.longMessage.source])
        let error = try #require(policyError { _ = try fixture.isDue("hostile") })
        #expect(error.message.utf8.count < 400, "\(error.message.utf8.count) bytes")
        #expect(error.message.contains("cut from 2000"), "\(error.message)")
    }

    @Test("one request's calls share one budget: once spent, every later call fails at once")
    func requestBudget() throws {
        // The work is done for one day of the 64-day block a call evaluates.
        let fixture = try PolicyFixture(["spender": schedule("""
            if day.month == 10 and day.day == 5 then local n = 0 for i = 1, 5000000 do n = n + i end end return true
            """)])
        let budget = PolicyRequestBudget(instructions: 15_000_000, cpuMilliseconds: 10_000)
        var failures: [PolicyError] = []
        var answered = 0
        budget.run {
            for _ in 0..<10 {
                do {
                    _ = try fixture.isDue("spender")
                    answered += 1
                } catch let error as PolicyError {
                    failures.append(error)
                } catch {}
            }
        }
        // Each call costs about 10 million instructions: the first answers, the pool runs out in
        // the second, and the rest fail without running.
        #expect(answered == 1, "\(failures.map(\.description))")
        #expect(failures.count == 9)
        #expect(failures.allSatisfy { $0.description.contains("the request's policy budget") }, "\(failures.map(\.description))")
        // Outside the request the per-call budget alone applies again.
        #expect(try fixture.isDue("spender"))
    }

    @Test("the request's CPU time is shared too")
    func requestTime() throws {
        let fixture = try PolicyFixture(["hostile": schedule("while true do end")])
        let started = threadCPUSeconds()
        var kinds: [PolicyError.Kind] = []
        PolicyRequestBudget(instructions: 1 << 40, cpuMilliseconds: 300).run {
            for _ in 0..<5 {
                if let error = policyError({ _ = try fixture.isDue("hostile") }) { kinds.append(error.kind) }
            }
        }
        #expect(kinds.count == 5)
        // Five calls of a 500 ms budget each, in one request of 300 ms: about 300 ms in all.
        #expect(threadCPUSeconds() - started < 1)
    }

    @Test("what policies keep at load time is bounded for the whole state")
    func stateBound() throws {
        let keeper = "local keep = ('x'):rep(25 * 1024 * 1024)\nreturn { isDue = function() return #keep > 0 end }\n"
        let fixture = try PolicyFixture(["one": keeper, "two": keeper, "three": keeper],
                                        budget: PolicyBudget(stateBytes: 96 << 20))
        #expect(try fixture.isDue("one"))
        #expect(try fixture.isDue("two"))
        let error = try #require(policyError { _ = try fixture.isDue("three") })
        #expect(error.kind == .memoryBudget, "\(error)")
        #expect(try fixture.library.host().memoryInUse < 100 << 20)
    }
}
