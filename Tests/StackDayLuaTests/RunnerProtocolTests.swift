import Foundation
import Testing
import StackDay
@testable import StackDayLua

/// The runner pipe's messages: every field round-trips from its one declaration, and a frame
/// with a field this build does not know, without one it needs, or of another version is an
/// error that names it.
@Suite("runner protocol")
struct RunnerProtocolTests {
    static func call() throws -> RunnerCall {
        let start = try LocalDay(iso: "2026-11-01")
        let habit = try Habit(name: "물 마시기", startedOn: start, createdAt: Date(timeIntervalSince1970: 1_790_000_000), goal: 8, unit: "잔")
        let answers = TimelineAnswers(due: [true, false], progress: [0.5, 1], thousandths: [4000, 8000], skipped: [false, true],
                                      spans: [CachedSpan(days: LocalDayRange(start, start.adding(days: 1)), rulesKey: "k", quota: PeriodQuota(times: 3, period: .week)), nil])
        let request = EvaluationRequest(habit: habit, dailyTotals: [(start, 4000), (start.adding(days: 1), 8000)], skips: [],
                                        today: start.adding(days: 1), period: LocalDayRange(start, start.adding(days: 1)), known: answers, needsStreak: true)
        var call = RunnerCall(evaluating: RunnerEvaluation(request, scriptIndexes: [0, 1, 2]),
                              scripts: [RunnerCall.Script(name: "daily", file: "built-in:daily.lua", sha256: String(repeating: "a", count: 64), source: "return {}"),
                                        RunnerCall.Script(name: "goal", file: "goal.lua", sha256: String(repeating: "b", count: 64), source: nil)],
                              share: RequestShare(instructions: 123, cpuNanoseconds: 456, budget: PolicyRequestBudget(instructions: 789, cpuMilliseconds: 10)))
        call.continues = true
        call.owner = "ana"
        call.parametersJSON = #"{"times":3}"#
        call.startedOn = start.ordinal
        call.goal = 2.5
        call.unit = "km"
        call.first = 5
        call.count = 2
        call.totals = [1.5, 2]
        call.ordinals = [7, 8]
        call.status = [1, 2]
        call.due = [1, 0]
        call.progress = [0.25, 1]
        call.carry = HabitStreak(current: 3, longest: 9)
        call.keep = 4
        call.trace = true
        call.memberNames = ["water", "read"]
        call.memberUnits = ["cups", ""]
        call.memberGoals = [8, 1]
        return call
    }

    static func reply() -> RunnerReply {
        var reply = RunnerReply(.refused)
        reply.instructions = 11
        reply.cpuNanoseconds = 22
        reply.spent = RequestShare.Spent(rawValue: 1)
        reply.text = "{}"
        reply.flags = [1, 0, 1]
        reply.numbers = [0.5]
        reply.integers = [3, 1, 0]
        reply.failures = ["example 1 failed", "example 2 failed"]
        reply.answers = TimelineAnswers(due: [true], progress: [1], thousandths: [1000], skipped: [false], spans: [nil])
        reply.error = PolicyError(policy: "mine", file: "mine.lua", line: 4, kind: .script, message: "attempt to index a nil value")
        reply.trace = "line\n"
        return reply
    }

    @Test("a call and a reply with every field set read back to the same frame, field by field")
    func roundTrip() throws {
        let call = try Self.call()
        let read = try RunnerCall(reading: call.frame.bytes)
        #expect(read.frame.bytes == call.frame.bytes)
        #expect(read.operation == .evaluate && read.owner == "ana" && read.share.budget.cpuMilliseconds == 10 && read.scripts.count == 2)
        #expect(read.scripts[0].source == "return {}" && read.scripts[1].source == nil && read.evaluation?.habit.name == "물 마시기")
        #expect(read.carry == HabitStreak(current: 3, longest: 9) && read.ordinals == [7, 8] && read.trace && read.keep == 4)
        #expect(read.memberNames == ["water", "read"] && read.memberUnits == ["cups", ""] && read.memberGoals == [8, 1])
        let reply = Self.reply()
        let back = try RunnerReply(reading: reply.frame.bytes)
        #expect(back.frame.bytes == reply.frame.bytes)
        #expect(back.status == .refused && back.failures == reply.failures && back.error?.line == 4 && back.answers?.spans.count == 1)
        // Every declared field is written, each under its own tag.
        #expect(Set(RunnerCall.fields.map(\.tag)).count == RunnerCall.fields.count)
        #expect(Set(RunnerReply.fields.map(\.tag)).count == RunnerReply.fields.count)
    }

    @Test("a field this build does not know, one missing, one twice, another version, or a cut frame is refused by name")
    func refusals() throws {
        var bytes = Self.reply().frame.bytes
        // The version byte, then the status field (tag 1, one byte): make its tag unknown.
        var unknown = bytes
        unknown[1] = 99
        #expect(message { try RunnerReply(reading: unknown) }.contains("field 99, which this build does not know"))
        var stale = bytes
        stale[0] = RunnerWire.version + 1
        #expect(message { try RunnerReply(reading: stale) }.contains("protocol version \(RunnerWire.version + 1)"))
        // Without the trace: the last field (tag 12, a string) removed before the end marker.
        let trace = Array("line\n".utf8)
        let cut = bytes.count - 1 - 8 - trace.count - 1
        var missing = Array(bytes[..<cut])
        missing.append(0)
        #expect(message { try RunnerReply(reading: missing) }.contains("a reply without its trace"))
        var twice = Array(bytes[..<(bytes.count - 1)])
        twice += [12] + withUnsafeBytes(of: Int64(0).littleEndian, Array.init) + [0]
        #expect(message { try RunnerReply(reading: twice) }.contains("a reply with trace twice"))
        bytes.removeLast(3)
        #expect(message { try RunnerReply(reading: bytes) }.contains("cut short"))
    }

    func message(_ body: () throws -> Any) -> String {
        do {
            _ = try body()
            return "read"
        } catch {
            return "\(error)"
        }
    }
}
