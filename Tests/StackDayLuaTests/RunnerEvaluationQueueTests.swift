import Foundation
import Testing
import StackDay
import StackDayTestSupport
@testable import StackDayLua

/// A read's evaluations sent to a runner ahead of their answers give each habit the answers a
/// lone evaluation gives it, in order, whichever way the runner's pipe and its compiled scripts
/// happen to be.
@Suite("runner evaluation queue: answers in order, the same as one call each")
struct RunnerEvaluationQueueTests {
    static let today = (try? LocalDay(iso: "2026-10-11")) ?? .earliest

    /// Twenty habits of different schedules, goals and streak rules (more than the queue sends
    /// ahead), each with a year of totals and a few skips.
    static func requests() throws -> [EvaluationRequest] {
        let schedules: [PolicyChoice] = [
            .daily, PolicyChoice(name: "weekly", parameters: ["days": .array([.string("mon"), .string("thu")])]),
            PolicyChoice(name: "times-per-week", parameters: ["times": .number(3)]),
            PolicyChoice(name: "every-n-days", parameters: ["every": .number(3)]),
        ]
        let streaks: [PolicyChoice] = [.strict, PolicyChoice(name: "grace")]
        return try (0..<20).map { index in
            let start = today.adding(days: -365 + index)
            let habit = try Habit(name: "habit \(index)", startedOn: start, createdAt: Date(timeIntervalSince1970: 0), goal: Double(1 + index % 3),
                                  schedule: schedules[index % schedules.count], streak: streaks[index % streaks.count])
            let period = LocalDayRange(start, today)
            let totals = stride(from: 0, to: period.count, by: 1 + index % 4).map { (day: start.adding(days: $0), thousandths: Int64(1000 * (1 + $0 % 3))) }
            let skips = stride(from: 5, to: period.count, by: 40).map { Skip(habitID: habit.id, day: start.adding(days: $0), recordedAt: Date(timeIntervalSince1970: 0)) }
            return EvaluationRequest(habit: habit, dailyTotals: totals, skips: skips, today: today, period: period, known: nil, needsStreak: true)
        }
    }

    static func resolver() throws -> IsolatedPolicyResolver {
        let pool = PolicyRunnerPool(executable: Subprocess(product: "stackday").executable.path)
        return IsolatedPolicyResolver(library: try PolicyLibrary(searchPath: []), pool: pool)
    }

    /// A resolver on runners of the built `stackday`, the requests, and each one's lone evaluation.
    static func lone() throws -> (IsolatedPolicyResolver, InMemoryPolicyScriptRepository, [EvaluationRequest], [BatchEvaluation]) {
        let resolver = try Self.resolver()
        let scripts = InMemoryPolicyScriptRepository()
        let requests = try Self.requests()
        return (resolver, scripts, requests, try requests.map { try #require(try resolver.evaluate($0, scripts: scripts)) })
    }

    static func same(_ one: BatchEvaluation, _ other: BatchEvaluation) -> Bool {
        one.answers.due == other.answers.due && one.answers.progress == other.answers.progress
            && one.answers.thousandths == other.answers.thousandths && one.answers.skipped == other.answers.skipped
            && one.streak == other.streak
    }

    @Test("twenty habits through one queue answer as twenty lone evaluations, and the runner is kept for the next read")
    func inOrder() throws {
        let (resolver, scripts, requests, alone) = try Self.lone()
        let queue = try #require(resolver.evaluationQueue())
        for request in requests { try queue.submit(request, scripts: scripts) }
        let queued = try requests.map { _ in try queue.next() }
        queue.close()
        for (index, (one, other)) in zip(alone, queued).enumerated() {
            #expect(Self.same(one, other), "habit \(index)")
        }
        #expect(Set(alone.map { $0.streak?.current ?? -1 }).count > 1, "the habits differ (the check is not blind)")
        // Taken in turn with submits, as a read does: the same answers.
        let turns = try #require(resolver.evaluationQueue())
        var answers: [BatchEvaluation] = []
        for (index, request) in requests.enumerated() {
            try turns.submit(request, scripts: scripts)
            if index >= 3 { answers.append(try turns.next()) }
        }
        while answers.count < requests.count { answers.append(try turns.next()) }
        turns.close()
        #expect(zip(alone, answers).allSatisfy { Self.same($0, $1) })
    }

    @Test("a runner that let its compiled scripts go is sent them again, and the queue's answers stay in order")
    func forgottenScripts() throws {
        let (resolver, scripts, requests, alone) = try Self.lone()
        // A fresh runner the server believes holds every script: each first evaluation is sent
        // without its sources, and the runner asks for them.
        let used = try resolver.pool.take()
        let fresh = try resolver.pool.take()
        for request in requests {
            let (call, _) = try resolver.evaluationCall(request, scripts: scripts)
            for script in call.scripts { fresh.known.insert(script.sha256) }
        }
        let pid = fresh.pid
        #expect(pid != used.pid)
        resolver.pool.give(back: used)
        resolver.pool.give(back: fresh)
        let queue = RunnerEvaluationQueue(resolver: resolver)
        for request in requests { try queue.submit(request, scripts: scripts) }
        let queued = try requests.map { _ in try queue.next() }
        queue.close()
        #expect(zip(alone, queued).allSatisfy { Self.same($0, $1) })
        // The same runner answered (it was not replaced on the way).
        let kept = try resolver.pool.take()
        #expect(kept.pid == pid)
        resolver.pool.give(back: kept)
    }

    @Test("a queue closed with answers still on their way stops its runner; the next read gets a runner that answers from the start")
    func closedEarly() throws {
        let resolver = try Self.resolver()
        let scripts = InMemoryPolicyScriptRepository()
        let requests = try Self.requests()
        let queue = try #require(resolver.evaluationQueue())
        for request in requests { try queue.submit(request, scripts: scripts) }
        _ = try queue.next()
        queue.close()
        let again = try #require(resolver.evaluationQueue())
        for request in requests.prefix(3) { try again.submit(request, scripts: scripts) }
        let first = try again.next()
        again.close()
        let alone = try #require(try resolver.evaluate(requests[0], scripts: scripts))
        #expect(Self.same(first, alone))
    }
}
