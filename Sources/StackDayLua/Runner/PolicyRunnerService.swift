import CLuaHost
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import StackDay

/// The runner's side of isolated policy work (`PolicyRunnerPool` is the server's): one Lua
/// state shared by every user whose work it is handed, and nothing else shared between them.
///
/// Each script is compiled once, by its hash, from the text sent with it, into bytecode this
/// process made itself; each owner (a user, as the server names it by an opaque key) gets
/// instances of its own (a new environment, new upvalues, its own bindings), kept for that owner's
/// later calls and never handed to another, so no call sees what another user's left behind.
final class PolicyRunnerService {
    private let host: LuaHost
    private var compiled: [String: PolicyBytecode] = [:]
    private var compiledBytes = 0
    /// Each owner's instances of scripts and their bindings, by owner and hash (and rules).
    private var instances: [String: LoadedPolicy] = [:]
    private var bindings: [String: PolicyBinding] = [:]
    /// Instances kept at most, and the bytes the state may hold before they are let go.
    static let instanceLimit = 512
    static let instanceBytes = 48 << 20
    /// What each compiled script declared (the same for every instance), by hash.
    private var declarations: [String: (PolicyInfo, String)] = [:]
    /// Bytecode kept at most; past it the cache starts again.
    static let compiledLimit = 32 << 20
    /// A library with no folders and no built-ins: its checks and bindings, never its lookups.
    private let library: PolicyLibrary
    private lazy var checker = PolicyChecker(library: library)
    /// What the last call left of its request's share, for a call that continues it.
    private var carried: RequestShare?

    init(budget: PolicyBudget) throws {
        host = try LuaHost(budget: budget)
        library = try PolicyLibrary(searchPath: [], builtIns: [:], budget: budget)
    }

    /// Reads calls from `input` and writes each answer to `output` until `input` ends.
    func serve(input: Int32, output: Int32) {
        while let bytes = Self.readMessage(from: input) {
            let reply: RunnerReply
            do {
                reply = answer(try RunnerCall(reading: bytes))
            } catch {
                var failed = RunnerReply(.failed)
                failed.error = PolicyError(policy: "(runner)", file: nil, line: nil, kind: .unavailable, message: "\(error)")
                reply = failed
            }
            guard Self.write(reply.frame.message, to: output) else { return }
        }
    }

    /// One call, run under what its request has left.
    func answer(_ call: RunnerCall) -> RunnerReply {
        if call.scripts.contains(where: { compiled[$0.sha256] == nil && $0.source == nil }) { return RunnerReply(.needsSource) }
        let share = call.continues ? carried ?? call.share : call.share
        var traced: [PolicyTraceLine] = []
        let run = PolicyRequestBudget.resume(share) { () throws -> RunnerReply in
            let (reply, lines, _) = try self.host.authoring(tracing: call.trace) { () throws -> RunnerReply in
                if call.operation == .evaluate { return try self.evaluate(call) }
                guard let script = call.scripts.first else { throw RunnerFrameError() }
                return try self.perform(call, policy: try self.instance(of: script, for: call.owner))
            }
            traced = lines
            return reply
        }
        var reply: RunnerReply
        switch run.result {
        case .success(let answered): reply = answered
        case .failure(let error):
            reply = RunnerReply(.failed)
            reply.error = error as? PolicyError
                ?? PolicyError(policy: call.name, file: call.file, line: nil, kind: .script, message: "\(error)")
        }
        reply.trace = traced.map(\.encoded).joined()
        reply.instructions = run.instructions
        reply.cpuNanoseconds = run.cpuNanoseconds
        reply.spent = run.spent
        carried = RequestShare(instructions: run.spent == nil ? max(0, share.instructions - run.instructions) : 0,
                               cpuNanoseconds: run.spent == nil ? max(0, share.cpuNanoseconds - run.cpuNanoseconds) : 0, budget: share.budget)
        return reply
    }

    /// `owner`'s instance of `script`: made on first use (compiled first when this runner has not
    /// compiled it) and kept for that owner only, never handed to another.
    private func instance(of script: RunnerCall.Script, for owner: String) throws -> LoadedPolicy {
        let key = owner + "\u{1F}" + script.sha256
        if let kept = instances[key] { return kept }
        let policy = try LoadedPolicy(name: script.name, file: script.file, compiled: try bytecode(for: script), host: host,
                                      declared: declarations[script.sha256])
        if declarations[script.sha256] == nil { declarations[script.sha256] = (policy.info, policy.declaration) }
        if instances.count >= Self.instanceLimit || host.memoryInUse > Self.instanceBytes { forgetInstances() }
        instances[key] = policy
        return policy
    }

    /// `owner`'s binding of `policy` to a habit's rules for `role`, kept like its instances.
    private func binding(_ policy: LoadedPolicy, for owner: String, choice: PolicyChoice, role: PolicyRole, startedOn: LocalDay,
                         goal: Double, unit: String) throws -> PolicyBinding {
        let key = [owner, policy.sha256.description, role.rawValue, choice.parametersJSON, "\(startedOn.ordinal)", NumberText.format(goal), unit]
            .joined(separator: "\u{1F}")
        if let kept = bindings[key] { return kept }
        let bound = try library.bind(policy, choice: choice, role: role, startedOn: startedOn, goal: goal, unit: unit)
        if bindings.count >= Self.instanceLimit * 4 { bindings.removeAll() }
        bindings[key] = bound
        return bound
    }

    private func forgetInstances() {
        instances.removeAll()
        bindings.removeAll()
    }

    private func bytecode(for script: RunnerCall.Script) throws -> PolicyBytecode {
        if let kept = compiled[script.sha256] { return kept }
        guard let source = script.source else { throw RunnerFrameError() }
        let bytecode = try PolicyBytecode(name: script.name, file: script.file, source: source, host: host)
        guard bytecode.sha256.description == script.sha256 else {
            throw PolicyError(policy: script.name, file: script.file, line: nil, kind: .unavailable, message: "the script sent does not have the hash it was sent under")
        }
        if compiledBytes + bytecode.count > Self.compiledLimit {
            compiled.removeAll()
            declarations.removeAll()
            forgetInstances()
            compiledBytes = 0
        }
        compiled[script.sha256] = bytecode
        compiledBytes += bytecode.count
        return bytecode
    }

    /// A habit's period, as `HabitTimelineBuilder` builds it call by call in process, and its
    /// streak when asked: every script instantiated afresh for this call.
    private func evaluate(_ call: RunnerCall) throws -> RunnerReply {
        guard let evaluation = call.evaluation else { throw RunnerFrameError() }
        let habit = evaluation.habit
        let roles = PolicyRole.habitRoles
        let policies = RevisionPolicies { revision in
            func binding(_ role: PolicyRole) throws -> PolicyBinding {
                let index = evaluation.scriptIndexes[(revision.number - 1) * roles.count + (roles.firstIndex(of: role) ?? 0)]
                guard call.scripts.indices.contains(index) else { throw RunnerFrameError() }
                let script = call.scripts[index]
                let policy = try self.instance(of: script, for: call.owner)
                return try self.binding(policy, for: call.owner, choice: revision.choice(for: role), role: role, startedOn: habit.startedOn,
                                        goal: revision.goal, unit: habit.unit)
            }
            return HabitPolicies(schedule: LuaSchedulePolicy(binding: try binding(.schedule)), progress: LuaProgressPolicy(binding: try binding(.progress)),
                                 streak: LuaStreakPolicy(binding: try binding(.streak)))
        }
        let skips = evaluation.skipDays.map { Skip(habitID: habit.id, day: $0, recordedAt: Date(timeIntervalSince1970: 0)) }
        let (timeline, answers) = try HabitTimelineBuilder(policies: policies).build(
            habit: habit, dailyTotals: evaluation.dailyTotals, skips: skips, today: evaluation.today, through: evaluation.period.last,
            known: evaluation.known)
        var reply = RunnerReply(.ok)
        reply.answers = answers
        if evaluation.needsStreak, let streak = try? HabitStreakCalculator(policies: policies).calculate(timeline) {
            reply.integers = [streak.current, streak.longest]
        }
        return reply
    }

    private func perform(_ call: RunnerCall, policy: LoadedPolicy) throws -> RunnerReply {
        var reply = RunnerReply(.ok)
        switch call.operation {
        case .describe:
            reply.text = policy.declaration
            return reply
        case .vet:
            let report = checker.check(policy)
            if !report.isSuccess {
                reply.status = .refused
                reply.failures = report.failures
            }
            return reply
        default:
            break
        }
        let parameters = call.parametersJSON.isEmpty ? [:] : (try JSONValue(parsing: call.parametersJSON).objectValue ?? [:])
        let binding = try policy.bind(parameters: parameters, startedOn: try LocalDay(ordinal: call.startedOn), goal: call.goal, unit: call.unit)
        let first = try LocalDay(ordinal: call.first)
        switch call.operation {
        case .describe, .vet, .evaluate:
            break
        case .bind:
            reply.text = try binding.parametersJSON()
        case .due:
            guard call.count > 0 else { break }
            reply.flags = try binding.evaluateDue(LocalDayRange(first, first.adding(days: call.count - 1))).map { $0 ? 1 : 0 }
        case .quota:
            reply.integers = RunnerEvaluation.numbers(of: try binding.quota())
        case .progress:
            guard !call.totals.isEmpty else { break }
            reply.numbers = try binding.progress(totals: call.totals, days: LocalDayRange(first, first.adding(days: call.totals.count - 1)))
        case .streak:
            let streak = try binding.streak(first: first, days: try call.ordinals?.map { try LocalDay(ordinal: $0) }, status: call.status, due: call.due,
                                            totals: call.totals, progress: call.progress, carrying: call.carry)
            reply.integers = [streak.current, streak.longest]
        case .group:
            reply.numbers = try binding.group(first: first, members: try Self.members(of: call))
        case .remind:
            // 1 remind, 0 not, 2 no say.
            reply.flags = [try binding.remind(day: first, progress: call.totals.first ?? 0).map { $0 ? 1 : 0 } ?? 2]
        case .explain:
            let (steps, final) = try binding.explainStreak(first: first, days: try call.ordinals?.map { try LocalDay(ordinal: $0) }, status: call.status,
                                                          due: call.due, totals: call.totals, progress: call.progress,
                                                          carrying: call.carry, keepingFrom: call.keep)
            reply.integers = [final.current, final.longest]
            reply.text = JSONValue.array(steps.map { step in
                .array([step.before, step.after, .number(Double(step.streak.current)), .number(Double(step.streak.longest)),
                        step.why.map(JSONValue.string) ?? .null])
            }).jsonText
        }
        return reply
    }

    /// A group call's members day by day, from its flat lists (`RunnerGroupPolicy`).
    static func members(of call: RunnerCall) throws -> [[GroupMemberDay]] {
        let width = call.memberNames.count
        guard width > 0, call.memberUnits.count == width, call.memberGoals.count == width, call.count >= 0,
              call.status.count == width * call.count, call.totals.count == width * call.count, call.progress.count == width * call.count else {
            throw RunnerFrameError(reason: "a group call whose members and days do not agree")
        }
        return try (0..<call.count).map { day in
            try (0..<width).map { member in
                let index = day * width + member
                guard let status = StreakOutcome.Status(code: call.status[index]) else {
                    throw RunnerFrameError(reason: "a group call with member status \(call.status[index])")
                }
                return GroupMemberDay(name: call.memberNames[member], state: status.entryState, progress: call.progress[index],
                                      total: call.totals[index], goal: call.memberGoals[member], unit: call.memberUnits[member])
            }
        }
    }

    /// The next message on `fd`, or nil when it ended (or sent more than a message may hold).
    static func readMessage(from fd: Int32) -> [UInt8]? {
        guard let header = readExactly(4, from: fd) else { return nil }
        let count = header.reduce(0) { $0 << 8 | Int($1) }
        guard count <= RunnerFrame.maximumBytes else { return nil }
        return readExactly(count, from: fd)
    }

    static func readExactly(_ count: Int, from fd: Int32) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, count - done) }
            if got > 0 { done += got } else if got < 0 && errno == EINTR { continue } else { return nil }
        }
        return bytes
    }

    static func write(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var done = 0
        while done < bytes.count {
            let wrote = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
            if wrote > 0 { done += wrote } else if wrote < 0 && errno == EINTR { continue } else { return false }
        }
        return true
    }
}
