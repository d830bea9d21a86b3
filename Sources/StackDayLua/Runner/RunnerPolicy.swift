import Foundation
import StackDay

/// A policy bound to one habit (or group) whose calls run in a runner (`IsolatedPolicyResolver`):
/// one message per call over a range of days, never one per day. It serves every role; the
/// resolver hands out one for each.
///
/// `@unchecked Sendable`: its stored properties are immutable but for the memo of answers,
/// which `memoLock` guards.
final class RunnerPolicy: SchedulePolicy, ProgressPolicy, StreakPolicy, GroupPolicy, RemindingPolicy, @unchecked Sendable {
    let resolver: IsolatedPolicyResolver
    let script: PolicyScript
    let file: String
    let parametersJSON: String
    let startedOn: LocalDay
    let goal: Double
    let unit: String
    private let memoLock = NSLock()
    private var dueBlocks: [Int: [Bool]] = [:]
    private var quotaAnswer: PeriodQuota??

    init(resolver: IsolatedPolicyResolver, script: PolicyScript, file: String, parameters: [String: JSONValue], startedOn: LocalDay, goal: Double, unit: String) {
        self.resolver = resolver
        self.script = script
        self.file = file
        parametersJSON = parameters.isEmpty ? "" : JSONValue.object(parameters).jsonText
        self.startedOn = startedOn
        self.goal = goal
        self.unit = unit
    }

    /// What decides whether `validate` accepts the binding.
    var bindingKey: String {
        [script.sha256, parametersJSON, "\(startedOn.ordinal)", NumberText.format(goal), unit].joined(separator: "\u{1F}")
    }

    /// A call of `operation` on this binding, under what the request has left.
    func call(_ operation: RunnerCall.Operation) -> RunnerCall {
        var call = RunnerCall(operation, share: resolver.share(), name: script.name, file: file, sha256: script.sha256)
        call.parametersJSON = parametersJSON
        call.startedOn = startedOn.ordinal
        call.goal = goal
        call.unit = unit
        return call
    }

    private func run(_ call: RunnerCall) throws -> RunnerReply {
        try resolver.run(call, source: script.source)
    }

    // MARK: schedule

    func dueDays(_ days: LocalDayRange, habit: Habit) throws -> [Bool] {
        guard days.count > 0 else { return [] }
        if days.count <= 4 { return try days.map(isDue) }
        return try evaluateDue(days)
    }

    /// One day's answer, from its block of `PolicyBinding.blockSize` days kept for point queries
    /// (as `PolicyBinding.isDue` keeps them in process).
    private func isDue(_ day: LocalDay) throws -> Bool {
        let (block, offset, first) = PolicyBinding.block(of: day)
        if let kept = memoLock.withLock({ dueBlocks[block] }) { return kept[offset] }
        let answers: [Bool]
        do {
            answers = try evaluateDue(LocalDayRange(first, first.adding(days: PolicyBinding.blockSize - 1)))
        } catch let error as PolicyError where error.isBudget {
            throw error
        } catch {
            // A block can fail where the day alone would not (a neighbour the policy rejects).
            return try evaluateDue(LocalDayRange(day, day))[0]
        }
        memoLock.withLock {
            if dueBlocks.count >= 4096 { dueBlocks.removeAll(keepingCapacity: true) }
            dueBlocks[block] = answers
        }
        return answers[offset]
    }

    private func evaluateDue(_ days: LocalDayRange) throws -> [Bool] {
        var call = call(.due)
        call.first = days.first.ordinal
        call.count = days.count
        let flags = try run(call).flags
        guard flags.count == days.count else { throw wrongAnswer("the schedule") }
        return flags.map { $0 != 0 }
    }

    func quota(for habit: Habit) throws -> PeriodQuota? {
        if let kept = memoLock.withLock({ quotaAnswer }) { return kept }
        let numbers = try run(call(.quota)).integers
        guard numbers.count == 3 else { throw wrongAnswer("the quota") }
        let answer = RunnerEvaluation.quota(numbers)
        memoLock.withLock { quotaAnswer = .some(answer) }
        return answer
    }

    // MARK: progress

    func progress(totals: [Double], days: LocalDayRange, goal: Double) throws -> [Double] {
        guard !totals.isEmpty else { return [] }
        var call = call(.progress)
        call.first = days.first.ordinal
        call.totals = totals
        let numbers = try run(call).numbers
        guard numbers.count == totals.count else { throw wrongAnswer("progress") }
        return numbers
    }

    // MARK: remind

    func remind(day: LocalDay, progress: Double) throws -> Bool? {
        var call = call(.remind)
        call.first = day.ordinal
        call.totals = [progress]
        guard let flag = try run(call).flags.first, flag <= 2 else { throw wrongAnswer("remind") }
        return flag == 2 ? nil : flag == 1
    }

    // MARK: streak

    private func call(_ operation: RunnerCall.Operation, outcomes: LuaStreakPolicy.Outcomes, carrying: HabitStreak?) -> RunnerCall {
        var call = call(operation)
        call.first = outcomes.first.ordinal
        call.ordinals = outcomes.days?.map(\.ordinal)
        call.status = outcomes.status
        call.due = outcomes.due
        call.totals = outcomes.totals
        call.progress = outcomes.progress
        call.carry = carrying
        return call
    }

    func streak(over entries: ArraySlice<HabitEntry>, habit: Habit, carrying: HabitStreak?) throws -> HabitStreak {
        guard let outcomes = LuaStreakPolicy.Outcomes(entries) else { return carrying ?? HabitStreak(current: 0, longest: 0) }
        let numbers = try run(call(.streak, outcomes: outcomes, carrying: carrying)).integers
        guard numbers.count == 2 else { throw wrongAnswer("the streak") }
        return HabitStreak(current: numbers[0], longest: numbers[1])
    }

    func explain(over entries: ArraySlice<HabitEntry>, habit: Habit, carrying: HabitStreak?, keepingFrom keep: Int) throws -> (steps: [StreakStep], final: HabitStreak) {
        guard let outcomes = LuaStreakPolicy.Outcomes(entries) else { return ([], carrying ?? HabitStreak(current: 0, longest: 0)) }
        var call = call(.explain, outcomes: outcomes, carrying: carrying)
        call.keep = keep
        let reply = try run(call)
        guard reply.integers.count == 2, case .array(let rows)? = try? JSONValue(parsing: reply.text) else { throw wrongAnswer("the explanation") }
        var steps: [StreakStep] = []
        for row in rows {
            guard case .array(let fields) = row, fields.count == 5, case .number(let current) = fields[2], case .number(let longest) = fields[3] else {
                throw wrongAnswer("the explanation")
            }
            steps.append(StreakStep(before: fields[0], after: fields[1], streak: HabitStreak(current: Int(current), longest: Int(longest)), why: fields[4].stringValue))
        }
        return (steps, HabitStreak(current: reply.integers[0], longest: reply.integers[1]))
    }

    // MARK: group

    func progress(days: LocalDayRange, members: [[GroupMemberDay]]) throws -> [Double] {
        guard let width = members.first?.count, width > 0 else { return [] }
        var call = call(.group)
        call.first = days.first.ordinal
        call.count = members.count
        call.memberNames = members[0].map(\.name)
        call.memberUnits = members[0].map(\.unit)
        call.memberGoals = members[0].map(\.goal)
        let flat = members.joined()
        call.status = flat.map { StreakOutcome.Status($0.state).code }
        call.totals = flat.map(\.total)
        call.progress = flat.map(\.progress)
        let numbers = try run(call).numbers
        guard numbers.count == members.count else { throw wrongAnswer("the group") }
        return numbers
    }

    private func wrongAnswer(_ what: String) -> PolicyError {
        PolicyError(policy: script.name, file: file, line: nil, kind: .unavailable, message: "its policy runner's answer for \(what) could not be read")
    }
}
