import StackDay

/// One read's evaluations sent to one runner ahead of their answers
/// (`IsolatedPolicyResolver.evaluationQueue()`): the runner evaluates a habit while the server
/// reads the next one's history and builds the last one's timeline. Evaluations are written a
/// few at a time (`batch`), so that the runner is not woken for every habit.
///
/// Within a request, the deadline is the one a single call of all of them would have: what the
/// request had left of its CPU time when the runner was handed its first evaluation, plus the
/// margin and the runner's own work for every day sent, never past the pool's longest wait; each
/// evaluation sent while another's answer is unread spends what that one left of the request in
/// the runner (`RunnerCall.continues`), and answers are charged to the request as they are read.
/// Outside a request each evaluation adds a call's wait. A runner killed at the deadline fails
/// every evaluation it still held.
final class RunnerEvaluationQueue: EvaluationQueue {
    private let resolver: IsolatedPolicyResolver
    private var runner: RunnerProcess?
    private var started: UInt64 = 0
    private var deadline: UInt64 = 0
    private var latest: UInt64 = 0

    /// An evaluation sent, and its answer once read.
    private struct Sent {
        var call: RunnerCall
        let sources: [String: String]
        let request: EvaluationRequest
        var answer: Result<RunnerReply, PolicyRunnerPoolError>?
    }

    private var sent: [Sent] = []
    /// Evaluations before this index were handed out by `next`.
    private var taken = 0
    /// Evaluations before this index have their answers (or failures); the rest are unread.
    private var read = 0
    /// Evaluations before this index were written to the runner; the rest wait in `outgoing`.
    private var flushed = 0
    private var outgoing: [UInt8] = []
    /// How many evaluations are written to the runner at once (sooner when an answer is wanted).
    static let batch = 4

    init(resolver: IsolatedPolicyResolver) {
        self.resolver = resolver
    }

    func submit(_ request: EvaluationRequest, scripts: any PolicyScriptRepository) throws {
        var (call, sources) = try resolver.evaluationCall(request, scripts: scripts)
        let runner: RunnerProcess
        // Within a request its evaluations share what it has left; outside one (the command
        // line's `--isolate-policies`) each has a call's budget of its own.
        let shared = PolicyRequestBudget.isOpen
        if let current = self.runner {
            runner = current
            deadline += UInt64(shared ? request.period.count * IsolatedPolicyResolver.hostNanosecondsPerDay
                                      : max(0, resolver.wait(for: call, days: request.period.count)))
        } else {
            do { runner = try resolver.pool.take() } catch let error as PolicyRunnerPoolError { throw resolver.failure(error, of: call) }
            self.runner = runner
            started = RunnerProcess.monotonicNanoseconds()
            latest = started + PolicyRunnerPool.nanoseconds(resolver.pool.longestWait)
            deadline = started + UInt64(max(0, resolver.wait(for: call, days: request.period.count)))
        }
        if shared { deadline = min(latest, deadline) }
        call.continues = shared && read < sent.count
        for index in call.scripts.indices where !runner.known.contains(call.scripts[index].sha256) {
            call.scripts[index].source = sources[call.scripts[index].sha256]
            runner.known.insert(call.scripts[index].sha256)
        }
        sent.append(Sent(call: call, sources: sources, request: request, answer: nil))
        outgoing += call.frame.message
        if sent.count - flushed >= Self.batch { flush() }
    }

    /// Writes the evaluations waiting in `outgoing` to the runner.
    private func flush() {
        guard flushed < sent.count else { return }
        let failed = runner.map { $0.send(outgoing, by: deadline) } ?? .ended("the runner had ended")
        outgoing.removeAll(keepingCapacity: true)
        flushed = sent.count
        if let failed { lose(failed) }
    }

    func next() throws -> BatchEvaluation {
        guard taken < sent.count else {
            throw PolicyError(policy: "(runner)", file: nil, line: nil, kind: .unavailable, message: "no evaluation was waiting for its answer")
        }
        let index = taken
        taken += 1
        if flushed <= index { flush() }
        while read <= index { readAnswer() }
        var entry = sent[index]
        sent[index].answer = nil
        var reply: RunnerReply
        switch entry.answer {
        case .success(let answered)?: reply = answered
        case .failure(let error)?: throw resolver.failure(error, of: entry.call)
        case nil: throw resolver.failure(.ended("its answer was lost"), of: entry.call)
        }
        if reply.status == .needsSource {
            // The runner let its compiled scripts go: read what it answered after this one, then
            // send this one again with every source (the ones not written yet follow it).
            while read < flushed { readAnswer() }
            runner?.known.removeAll()
            for script in entry.call.scripts.indices { entry.call.scripts[script].source = entry.sources[entry.call.scripts[script].sha256] }
            entry.call.continues = false
            entry.call.share = resolver.share()
            reply = try again(entry)
        }
        return try resolver.batch(from: try resolver.checked(reply, of: entry.call), of: entry.request)
    }

    func close() {
        guard let runner else { return }
        self.runner = nil
        if read == flushed {
            resolver.pool.give(back: runner)
        } else {
            // Answers still on their way: this runner's pipe is not at a message's start.
            runner.stop()
            resolver.pool.replace()
        }
    }

    deinit { close() }

    /// Reads the oldest unread answer from the runner, charging the request with it.
    private func readAnswer() {
        guard let runner, read < flushed else { return lose(.ended("the runner had ended")) }
        switch runner.receive(by: deadline) {
        case .answered(let bytes):
            guard let reply = try? RunnerReply(reading: bytes) else { return lose(.ended("its answer could not be read")) }
            resolver.charge(reply)
            sent[read].answer = .success(reply)
            read += 1
        case let failed:
            lose(failed)
        }
    }

    /// The runner is gone (killed at the deadline, or ended): every evaluation it still held
    /// fails the same way, and a runner killed late spends the request's time at once, so that
    /// no evaluation submitted after it starts afresh.
    private func lose(_ outcome: RunnerProcess.Outcome) {
        let error: PolicyRunnerPoolError
        switch outcome {
        case .late:
            error = .late(waitedNanoseconds: Int(RunnerProcess.monotonicNanoseconds() - started))
            resolver.spendRequestTime(of: sent.indices.contains(read) ? sent[read].call : nil)
            resolver.pool.replace()
        case .ended(let why): error = .ended(why)
        case .answered: error = .ended("it answered out of turn")
        }
        for index in read..<sent.count { sent[index].answer = .failure(error) }
        read = sent.count
        flushed = sent.count
        outgoing.removeAll()
        runner?.stop()
        runner = nil
    }

    /// Sends one evaluation again, alone, and reads its answer (charged).
    private func again(_ entry: Sent) throws -> RunnerReply {
        guard let runner else { throw resolver.failure(.ended("the runner had ended"), of: entry.call) }
        let outcome = runner.exchange(entry.call.frame.message, deadline: deadline)
        if case .answered(let bytes) = outcome, let reply = try? RunnerReply(reading: bytes), reply.status != .needsSource {
            for script in entry.call.scripts { runner.known.insert(script.sha256) }
            resolver.charge(reply)
            return reply
        }
        let error: PolicyRunnerPoolError = switch outcome {
        case .late: .late(waitedNanoseconds: Int(RunnerProcess.monotonicNanoseconds() - started))
        case .ended(let why): .ended(why)
        case .answered: .ended("it asked for a script's source twice")
        }
        lose(outcome)
        throw resolver.failure(error, of: entry.call)
    }
}
