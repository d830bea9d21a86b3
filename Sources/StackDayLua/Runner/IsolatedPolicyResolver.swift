import Foundation
import Synchronization
import StackDay

/// Policies whose every call runs in a runner process (`PolicyRunnerPool`), never in this one:
/// what a server answering many users runs their scripts with. Names resolve as
/// `PolicyLibrary` resolves them (folders, then built-ins; pinned choices to their stored
/// scripts), and the answers are the ones `PolicyLibrary` gives in process.
///
/// A resolver keeps no Lua state: the runners hold each resolver's instances of scripts apart
/// from every other's, so a server makes one per user (`forAnotherOwner`), all sharing the
/// runners and what they learned (what scripts declare, which bindings `validate` accepted).
///
/// `@unchecked Sendable`: its own properties are immutable; `Kept` guards what it shares, and
/// `library` (used for names and sources only) guards itself.
public final class IsolatedPolicyResolver: PolicyResolver, @unchecked Sendable {
    public let library: PolicyLibrary
    public let pool: PolicyRunnerPool
    /// Whose calls these are, to the runners: a key no other resolver has.
    let owner: String
    private let kept: Kept
    static let keptLimit = 65_536
    /// The lines runners traced for a `tracing` body running now; nil when none is.
    private let traced = Mutex<[PolicyTraceLine]?>(nil)

    /// What every resolver of one pool learns once: what scripts declare, and which bindings
    /// their `validate` accepted.
    ///
    /// `@unchecked Sendable`: both sets are read and written only while `lock` is held.
    final class Kept: @unchecked Sendable {
        let lock = NSLock()
        var declarations: [String: PolicyInfo] = [:]
        var accepted: Set<String> = []
    }

    public convenience init(library: PolicyLibrary, pool: PolicyRunnerPool) {
        self.init(library: library, pool: pool, kept: Kept())
    }

    private init(library: PolicyLibrary, pool: PolicyRunnerPool, kept: Kept) {
        self.library = library
        self.pool = pool
        self.kept = kept
        owner = UUID().uuidString
    }

    /// A resolver for another user: the same runners and what they learned, with instances of
    /// its own in them (a server makes one per user it serves).
    public func forAnotherOwner() -> IsolatedPolicyResolver {
        IsolatedPolicyResolver(library: library, pool: pool, kept: kept)
    }

    public var evaluationKey: String { library.evaluationKey }

    public var runsScripts: Bool { true }

    public func folderScript(named name: String, at now: Date) throws -> (script: PolicyScript, file: String)? {
        try library.folderScript(named: name, at: now)
    }

    public func folderNames() -> [String] { library.folderNames() }

    public func builtInScript(named name: String) -> PolicyScript? { library.builtInScript(named: name) }

    public func builtInNames() -> [String] { library.builtInNames() }

    public func tracing<T>(_ body: () throws -> T) throws -> (T, [PolicyTraceLine]) {
        traced.withLock { $0 = [] }
        defer { traced.withLock { $0 = nil } }
        let result = try body()
        return (result, traced.withLock { $0 ?? [] })
    }

    public func describe(_ script: PolicyScript) throws -> PolicyListing {
        let info = try declaration(of: script, file: library.fileLabel(of: script))
        return PolicyListing(name: script.name, roles: info.roles, description: info.description, schema: info.parameterSchema)
    }

    public func policies(for habit: Habit, revision: HabitRevision, scripts: any PolicyScriptRepository) throws -> HabitPolicies {
        func policy(_ role: PolicyRole) throws -> RunnerPolicy {
            try bound(revision.choice(for: role), role: role, scripts: scripts, startedOn: habit.startedOn, goal: revision.goal, unit: habit.unit)
        }
        return HabitPolicies(schedule: try policy(.schedule), progress: try policy(.progress), streak: try policy(.streak))
    }

    public func groupPolicies(for group: HabitGroup, revision: GroupRevision, scripts: any PolicyScriptRepository) throws -> GroupPolicies {
        func policy(_ choice: PolicyChoice, _ role: PolicyRole) throws -> RunnerPolicy {
            try bound(choice, role: role, scripts: scripts, startedOn: group.startedOn, goal: 1, unit: "")
        }
        return GroupPolicies(rule: try policy(revision.rule, .group), streak: try policy(revision.streak, .streak))
    }

    /// `choice` bound for `role` to a habit's or group's start, goal and unit: refused when its
    /// script does not serve the role or its `validate` does not accept the binding.
    private func bound(_ choice: PolicyChoice, role: PolicyRole, scripts: any PolicyScriptRepository,
                       startedOn: LocalDay, goal: Double, unit: String) throws -> RunnerPolicy {
        let (script, file) = try library.source(of: choice, scripts: scripts)
        let info = try declaration(of: script, file: file)
        guard info.roles.contains(role) else {
            throw PolicyError(policy: choice.name, file: file, line: nil, kind: .unavailable,
                              message: "cannot serve as a \(role.rawValue) policy (it defines \(PolicyLibrary.roleFunctions(info.roles)))")
        }
        let policy = RunnerPolicy(resolver: self, script: script, file: file, parameters: choice.parameters, startedOn: startedOn, goal: goal, unit: unit)
        try checkAccepted(policy)
        return policy
    }

    public func evaluate(_ request: EvaluationRequest, scripts: any PolicyScriptRepository) throws -> BatchEvaluation? {
        guard request.period.count > 0 else { return nil }
        let (call, sources) = try evaluationCall(request, scripts: scripts)
        return try batch(from: try run(call, sources: sources, days: request.period.count), of: request)
    }

    public func evaluationQueue() -> (any EvaluationQueue)? {
        RunnerEvaluationQueue(resolver: self)
    }

    /// The call that evaluates `request` (each distinct script once, and which one each revision's
    /// roles use), with the scripts' sources by hash.
    func evaluationCall(_ request: EvaluationRequest, scripts: any PolicyScriptRepository) throws -> (RunnerCall, [String: String]) {
        var sent: [RunnerCall.Script] = []
        var sources: [String: String] = [:]
        var indexes: [Int] = []
        var positions: [String: Int] = [:]
        for revision in request.habit.revisions {
            for role in PolicyRole.habitRoles {
                let (script, file) = try library.source(of: revision.choice(for: role), scripts: scripts)
                if let position = positions[script.sha256] {
                    indexes.append(position)
                    continue
                }
                positions[script.sha256] = sent.count
                indexes.append(sent.count)
                sent.append(RunnerCall.Script(name: script.name, file: file, sha256: script.sha256))
                sources[script.sha256] = script.source
            }
        }
        var call = RunnerCall(evaluating: RunnerEvaluation(request, scriptIndexes: indexes), scripts: sent, share: share())
        call.owner = owner
        return (call, sources)
    }

    /// The evaluation a runner answered for `request`.
    func batch(from reply: RunnerReply, of request: EvaluationRequest) throws -> BatchEvaluation {
        guard let answers = reply.answers, answers.count == request.period.count else {
            throw PolicyError(policy: request.habit.schedule.name, file: nil, line: nil, kind: .unavailable,
                              message: "its policy runner's answers could not be read")
        }
        let streak = reply.integers.count == 2 ? HabitStreak(current: reply.integers[0], longest: reply.integers[1]) : nil
        return BatchEvaluation(answers: answers, streak: streak)
    }

    public func parameterSchema(for choice: PolicyChoice, scripts: any PolicyScriptRepository) throws -> PolicyParameterSchema? {
        let (script, file) = try library.source(of: choice, scripts: scripts)
        return try declaration(of: script, file: file).parameterSchema
    }

    public func vet(_ script: PolicyScript) throws {
        try PolicyLibrary.checkName(of: script)
        let file = library.fileLabel(of: script)
        let reply: RunnerReply
        do {
            reply = try run(RunnerCall(.vet, share: share(), name: script.name, file: file, sha256: script.sha256), source: script.source)
        } catch {
            throw PolicyRefusal(policy: script.name, failures: ["\(error)"])
        }
        if reply.status == .refused { throw PolicyRefusal(policy: script.name, failures: reply.failures.map { "\(file): \($0)" }) }
    }

    /// What `script` declares, asked of a runner once per hash.
    func declaration(of script: PolicyScript, file: String) throws -> PolicyInfo {
        if let known = kept.lock.withLock({ kept.declarations[script.sha256] }) { return known }
        let reply = try run(RunnerCall(.describe, share: share(), name: script.name, file: file, sha256: script.sha256), source: script.source)
        let info = try PolicyInfo(describing: reply.text, policy: script.name, file: file)
        kept.lock.withLock {
            if kept.declarations.count >= Self.keptLimit { kept.declarations.removeAll() }
            kept.declarations[script.sha256] = info
        }
        return info
    }

    /// Runs the policy's `validate` on its binding once: a refusal is thrown whenever it is asked for.
    private func checkAccepted(_ policy: RunnerPolicy) throws {
        let key = policy.bindingKey
        if kept.lock.withLock({ kept.accepted.contains(key) }) { return }
        _ = try run(policy.call(.bind), source: policy.script.source)
        kept.lock.withLock {
            if kept.accepted.count >= Self.keptLimit { kept.accepted.removeAll() }
            kept.accepted.insert(key)
        }
    }

    /// What a call may spend: what the request open on this thread has left, else one call's
    /// budget (with the request's pool set past it, so that the call's own budget is what ends it).
    func share() -> RequestShare {
        if let left = PolicyRequestBudget.left { return left }
        let budget = pool.budget
        return RequestShare(instructions: budget.instructions * 2, cpuNanoseconds: budget.cpuMilliseconds * 2_000_000,
                            budget: PolicyRequestBudget(instructions: budget.instructions * 2, cpuMilliseconds: budget.cpuMilliseconds * 2))
    }

    /// Runs `call` in a runner and charges the request with what it spent; throws the call's
    /// `PolicyError`, or a time-budget one when the runner had to be killed.
    func run(_ call: RunnerCall, source: String) throws -> RunnerReply {
        try run(call, sources: [call.sha256: source])
    }

    /// The runner's own work per day of an evaluation (building the days from the answers,
    /// folding, copying them through the pipe), waited for on top of the policies' time: a habit
    /// begun in year 1 has 740,000 days to build however quick its policies are.
    static let hostNanosecondsPerDay = 2_000

    /// How long a call's runner is waited for: what the request has left of its CPU time (the
    /// runner's wall time can only be longer when it waits, which it does not), or one call's
    /// time outside a request, plus the margin and the runner's own work for `days` days.
    func wait(for call: RunnerCall, days: Int) -> Int {
        (PolicyRequestBudget.isOpen ? call.share.cpuNanoseconds : pool.budget.cpuMilliseconds * 1_000_000)
            + Int(PolicyRunnerPool.nanoseconds(pool.margin)) + days * Self.hostNanosecondsPerDay
    }

    /// The same for a call of several scripts, their sources by hash; `days` is how many days
    /// the runner builds besides running the policies.
    func run(_ call: RunnerCall, sources: [String: String], days: Int = 0) throws -> RunnerReply {
        var call = call
        call.owner = owner
        call.trace = traced.withLock { $0 != nil }
        let reply: RunnerReply
        do {
            reply = try pool.perform(call, sources: sources, waitNanoseconds: wait(for: call, days: days))
        } catch let error as PolicyRunnerPoolError {
            throw failure(error, of: call)
        }
        if call.trace, !reply.trace.isEmpty { traced.withLock { $0?.append(contentsOf: PolicyTraceLine.parse(reply.trace)) } }
        return try charged(reply, of: call)
    }

    /// The error a call that got no answer fails with; a runner killed at its deadline spends
    /// the request's time.
    func failure(_ error: PolicyRunnerPoolError, of call: RunnerCall) -> PolicyError {
        switch error {
        case .late(let waited):
            let open = PolicyRequestBudget.isOpen
            spendRequestTime(of: call)
            let limit = open ? "the request's time budget (\(call.share.budget.cpuMilliseconds) ms of CPU time for every policy call of one request)"
                : "its time budget (\(pool.budget.cpuMilliseconds) ms of CPU time)"
            // An evaluation runs several scripts; which one held the runner is not known here.
            let names = call.scripts.map(\.name).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            return PolicyError(policy: names.joined(separator: ", "), file: call.scripts.count == 1 ? call.file : nil, line: nil, kind: .timeBudget,
                               message: "exceeded \(limit): its runner was stopped after \(waited / 1_000_000) ms")
        case .ended(let why):
            return PolicyError(policy: call.name, file: call.file, line: nil, kind: .unavailable, message: "its policy runner failed: \(why)")
        }
    }

    /// Charges the request with what `reply` spent; throws the call's failure.
    func charged(_ reply: RunnerReply, of call: RunnerCall) throws -> RunnerReply {
        charge(reply)
        return try checked(reply, of: call)
    }

    /// Ends the time of the request open on this thread: a runner was killed at its deadline
    /// while it held `call`, so no later call of the request may start afresh.
    func spendRequestTime(of call: RunnerCall?) {
        if PolicyRequestBudget.isOpen {
            PolicyRequestBudget.take(instructions: 0, cpuNanoseconds: call?.share.cpuNanoseconds ?? 0, spentRequest: .time)
        }
    }

    /// Charges the request open on this thread with what `reply` spent.
    func charge(_ reply: RunnerReply) {
        if PolicyRequestBudget.isOpen {
            PolicyRequestBudget.take(instructions: reply.instructions, cpuNanoseconds: reply.cpuNanoseconds, spentRequest: reply.spent)
        }
    }

    /// `reply`, or the failure it reports.
    func checked(_ reply: RunnerReply, of call: RunnerCall) throws -> RunnerReply {
        if reply.status == .failed {
            throw reply.error ?? PolicyError(policy: call.name, file: call.file, line: nil, kind: .unavailable, message: "its policy runner failed")
        }
        return reply
    }
}
