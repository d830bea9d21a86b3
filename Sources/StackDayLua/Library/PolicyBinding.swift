import CLuaHost
import Foundation
import StackDay

/// A policy bound to one habit's parameters and start day: the object the engine calls.
///
/// Each method is one protected call for a whole range of days.
///
/// `@unchecked Sendable`: its stored properties are immutable, its memo of answers is guarded by
/// `memoLock`, and every call into Lua goes through the host, which serializes them with its lock.
public final class PolicyBinding: @unchecked Sendable {
    public let policy: LoadedPolicy
    let reference: Int32
    /// Whether calls use the policy's range forms (dueRange, progressRange, streakRange) when it
    /// has them; off, every day is its own call (tests compare the two).
    public let usesRangeForms: Bool

    init(policy: LoadedPolicy, reference: Int32, usesRangeForms: Bool) {
        self.policy = policy
        self.reference = reference
        self.usesRangeForms = usesRangeForms
    }

    deinit {
        policy.host.release(reference)
    }

    @discardableResult
    private func call<T>(_ body: (OpaquePointer, UnsafeMutablePointer<sd_error>) -> T?) throws -> T {
        try policy.host.call(policy: policy.name, file: policy.file, body)
    }

    /// The merged parameters (defaults overlaid with the habit's own) as JSON text.
    public func parametersJSON() throws -> String {
        try call { handle, error -> String? in
            guard let text = sd_binding_parameters(handle, reference, error) else { return nil }
            defer { free(text) }
            return String(cString: text)
        }
    }

    /// Days per block of answers kept for point queries.
    static let blockSize = 64
    private let memoLock = NSLock()
    private var dueBlocks: [Int: [Bool]] = [:]

    /// `isDue` for every day of `days`.
    ///
    /// A short range (a point query) is answered from whole blocks of days evaluated once and
    /// kept: a policy is a pure function of the day, its parameters and the habit's start.
    public func dueDays(_ days: LocalDayRange) throws -> [Bool] {
        guard days.count > 0 else { return [] }
        if days.count <= 4 { return try days.map(isDue) }
        return try evaluateDue(days)
    }

    /// The block of `blockSize` days `day` is kept in: its number, the day's place in it, and
    /// its first day.
    static func block(of day: LocalDay) -> (number: Int, offset: Int, first: LocalDay) {
        let size = blockSize
        let block = day.ordinal >= 0 ? day.ordinal / size : (day.ordinal - size + 1) / size
        let offset = day.ordinal - block * size
        return (block, offset, day.adding(days: -offset))
    }

    /// One day's answer, from its block of `blockSize` days.
    public func isDue(_ day: LocalDay) throws -> Bool {
        let size = Self.blockSize
        let (block, offset, first) = Self.block(of: day)
        memoLock.lock()
        let cached = dueBlocks[block]
        memoLock.unlock()
        if let cached { return cached[offset] }
        let answers: [Bool]
        let started = PolicyRequestBudget.threadCPUMilliseconds()
        do {
            answers = try evaluateDue(LocalDayRange(first, first.adding(days: size - 1)))
        } catch let error as PolicyError where error.kind == .timeBudget || PolicyRequestBudget.isSpent {
            // Out of time, or the request's pool is spent: trying again would spend as much again.
            throw error
        } catch let error as PolicyError where error.kind == .instructionBudget && !PolicyRequestBudget.isOpen {
            // The day alone may fit where its block did not; block and day together take at most
            // one call's CPU time, so a policy that spends every budget costs one, not two.
            let budget = policy.host.budget
            let left = max(1, budget.cpuMilliseconds - (PolicyRequestBudget.threadCPUMilliseconds() - started))
            do {
                return try PolicyRequestBudget(instructions: budget.instructions, cpuMilliseconds: left).run {
                    try evaluateDue(LocalDayRange(day, day))[0]
                }
            } catch let retry as PolicyError where retry.kind.isBudget {
                throw error
            }
        } catch {
            // A block can fail where the day alone would not (instructions spent on the other days,
            // a neighbour the policy rejects): then answer, or fail, for the day by itself.
            return try evaluateDue(LocalDayRange(day, day))[0]
        }
        memoLock.lock()
        if dueBlocks.count >= 4096 { dueBlocks.removeAll(keepingCapacity: true) }
        dueBlocks[block] = answers
        memoLock.unlock()
        return answers[offset]
    }

    func evaluateDue(_ days: LocalDayRange) throws -> [Bool] {
        let count = days.count
        var out = [Bool](repeating: false, count: count)
        // The host writes each day's answer as the byte 0 or 1: a Bool's own representation, so
        // the answers' memory is lent to it as bytes for the call.
        try out.withUnsafeMutableBufferPointer { answers in
            try answers.withMemoryRebound(to: UInt8.self) { bytes in
                var request = self.days(first: days.first, count: count)
                request.due_out = bytes.baseAddress
                try call { handle, error -> Bool? in sd_schedule(handle, &request, error) == 0 ? true : nil }
            }
        }
        return out
    }

    /// The schedule's quota ("3 times a week"), or nil for a day-by-day schedule.
    public func quota() throws -> PeriodQuota? {
        var times: Int32 = 0, kind: Int32 = 0, days: Int32 = 0
        try call { handle, error -> Bool? in
            sd_quota(handle, reference, &times, &kind, &days, error) == 0 ? true : nil
        }
        switch Int(kind) {
        // A week's `days` is the ISO weekday it starts on.
        case SD_QUOTA_WEEK: return PeriodQuota(times: Int(times), period: .week, weekStart: WeekStart(isoWeekday: Int(days)) ?? .monday)
        case SD_QUOTA_MONTH: return PeriodQuota(times: Int(times), period: .month)
        case SD_QUOTA_ROLLING: return PeriodQuota(times: Int(times), period: .rolling(days: Int(days)))
        default: return nil
        }
    }

    /// `progress` for each day's total; with `undated`, the call is about no real day (an
    /// example without one) and its errors name none.
    public func progress(totals: [Double], days: LocalDayRange, undated: Bool = false) throws -> [Double] {
        guard !totals.isEmpty else { return [] }
        var out = [Double](repeating: 0, count: totals.count)
        try totals.withUnsafeBufferPointer { totals in
            try out.withUnsafeMutableBufferPointer { out in
                var request = self.days(first: days.first, count: totals.count)
                request.undated = undated ? 1 : 0
                request.totals = totals.baseAddress
                request.progress_out = out.baseAddress
                try call { handle, error -> Bool? in sd_progress(handle, &request, error) == 0 ? true : nil }
            }
        }
        return out
    }

    /// The policy's `remind(day, progress, params)` on `day`: whether to remind, or nil when the
    /// policy defines no remind.
    public func remind(day: LocalDay, progress: Double) throws -> Bool? {
        var answer: [UInt8] = [0]
        let totals = [progress]
        try totals.withUnsafeBufferPointer { totals in
            try answer.withUnsafeMutableBufferPointer { answer in
                var request = self.days(first: day, count: 1)
                request.totals = totals.baseAddress
                request.due_out = answer.baseAddress
                try call { handle, error -> Bool? in sd_remind(handle, &request, error) == 0 ? true : nil }
            }
        }
        return answer[0] == 2 ? nil : answer[0] == 1
    }

    /// `group` for each day from `first`: `members[i]` are the members' days on the i-th day, the
    /// same members in the same order every day. With `undated`, the call is about no real day.
    public func group(first: LocalDay, members: [[GroupMemberDay]], undated: Bool = false) throws -> [Double] {
        guard let width = members.first?.count else { return [] }
        precondition(members.allSatisfy { $0.count == width }, "a group's days list the same members")
        let flat = members.joined()
        let status: [UInt8] = flat.map { StreakOutcome.Status($0.state).code }
        let totals = flat.map(\.total), progress = flat.map(\.progress), goals = flat.map(\.goal)
        var names = members[0].map { strdup($0.name) }, units = members[0].map { strdup($0.unit) }
        defer { (names + units).forEach { free($0) } }
        var out = [Double](repeating: 0, count: members.count)
        try status.withUnsafeBufferPointer { status in
            try totals.withUnsafeBufferPointer { totals in
                try progress.withUnsafeBufferPointer { progress in
                    try goals.withUnsafeBufferPointer { goals in
                        try names.withUnsafeMutableBufferPointer { names in
                            try units.withUnsafeMutableBufferPointer { units in
                                try out.withUnsafeMutableBufferPointer { out in
                                    var request = self.days(first: first, count: members.count)
                                    request.undated = undated ? 1 : 0
                                    request.members = Int32(width)
                                    request.status = status.baseAddress
                                    request.totals = totals.baseAddress
                                    request.progress = progress.baseAddress
                                    request.goals = goals.baseAddress
                                    request.member_names = UnsafePointer(OpaquePointer(names.baseAddress))
                                    request.member_units = UnsafePointer(OpaquePointer(units.baseAddress))
                                    request.progress_out = out.baseAddress
                                    try call { handle, error -> Bool? in sd_group(handle, &request, error) == 0 ? true : nil }
                                }
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    /// Folds `streak` over consecutive outcomes starting at `first`; with `undated`, the days are
    /// no real days (an example's history without a start) and errors name none.
    public func streak(first: LocalDay, outcomes: [StreakOutcome], undated: Bool = false) throws -> HabitStreak {
        try streak(first: first, status: outcomes.map(\.status.code), due: outcomes.map { $0.isDue ? 1 : 0 },
                   totals: outcomes.map(\.total), progress: outcomes.map(\.progress), undated: undated)
    }

    /// The streak after each of `outcomes` (consecutive days from `first`), in one fold.
    public func streakSteps(first: LocalDay, outcomes: [StreakOutcome]) throws -> [HabitStreak] {
        guard !outcomes.isEmpty else { return [] }
        let status = outcomes.map(\.status.code), due: [UInt8] = outcomes.map { $0.isDue ? 1 : 0 }
        let totals = outcomes.map(\.total), progress = outcomes.map(\.progress)
        var currents = [Int64](repeating: 0, count: outcomes.count), longests = [Int64](repeating: 0, count: outcomes.count)
        try withOutcomes(first: first, ordinals: nil, status: status, due: due, totals: totals, progress: progress, carry: nil) { request in
            request.use_range = 0
            try currents.withUnsafeMutableBufferPointer { currents in
                try longests.withUnsafeMutableBufferPointer { longests in
                    request.step_current = currents.baseAddress
                    request.step_longest = longests.baseAddress
                    try call { handle, error -> Bool? in sd_streak(handle, &request, error) == 0 ? true : nil }
                }
            }
        }
        return zip(currents, longests).map { HabitStreak(current: Int($0), longest: Int($1)) }
    }

    /// The fold step by step through the per-day rule: each step's state before and after (as
    /// JSON), its streak, and the rule's optional `why`.
    func explainStreak(first: LocalDay, days: [LocalDay]?, status: [UInt8], due: [UInt8], totals: [Double], progress: [Double],
                       carrying: HabitStreak?, keepingFrom keep: Int) throws -> (steps: [StreakStep], final: HabitStreak) {
        guard !status.isEmpty else { return ([], carrying ?? HabitStreak(current: 0, longest: 0)) }
        let keep = min(max(0, keep), status.count)
        let ordinals = days?.map { Int32($0.ordinal) }
        let carry = carrying.map { [Int64($0.current), Int64($0.longest)] }
        var currents = [Int64](repeating: 0, count: status.count), longests = [Int64](repeating: 0, count: status.count)
        var text: UnsafeMutablePointer<CChar>? = nil
        try withOutcomes(first: first, ordinals: ordinals, status: status, due: due, totals: totals, progress: progress, carry: carry) { request in
            request.keep_from = Int32(keep)
            try currents.withUnsafeMutableBufferPointer { currents in
                try longests.withUnsafeMutableBufferPointer { longests in
                    request.step_current = currents.baseAddress
                    request.step_longest = longests.baseAddress
                    try call { handle, error -> Bool? in sd_streak_explain(handle, &request, error) == 0 ? true : nil }
                    text = request.explain_json
                }
            }
        }
        defer { free(text) }
        guard let text, case .object(let object) = try JSONValue(parsing: String(cString: text)),
              case .array(let states)? = object["states"], case .array(let whys)? = object["whys"],
              states.count == status.count - keep + 1, whys.count == status.count - keep
        else { throw PolicyError(policy: policy.name, file: nil, line: nil, kind: .wrongAnswer, message: "the explanation of the streak rule could not be read") }
        let steps = (keep..<status.count).map { index in
            StreakStep(before: states[index - keep], after: states[index - keep + 1],
                       streak: HabitStreak(current: Int(currents[index]), longest: Int(longests[index])), why: whys[index - keep].stringValue)
        }
        return (steps, HabitStreak(current: Int(currents[status.count - 1]), longest: Int(longests[status.count - 1])))
    }

    /// The same, from parallel arrays (status codes as `StreakOutcome.Status` encodes them).
    ///
    /// With `days`, outcome i is on `days[i]` (increasing, as a quota habit's period ends are);
    /// without, the outcomes are consecutive days from `first`. With `carrying`, the rule's
    /// initial state takes its current and longest streak.
    func streak(first: LocalDay, days: [LocalDay]? = nil, status: [UInt8], due: [UInt8], totals: [Double], progress: [Double],
                carrying: HabitStreak? = nil, undated: Bool = false) throws -> HabitStreak {
        guard !status.isEmpty else { return carrying ?? HabitStreak(current: 0, longest: 0) }
        let ordinals = days?.map { Int32($0.ordinal) }
        let carry = carrying.map { [Int64($0.current), Int64($0.longest)] }
        return try withOutcomes(first: first, ordinals: ordinals, status: status, due: due, totals: totals, progress: progress, carry: carry) { request in
            request.undated = undated ? 1 : 0
            try call { handle, error -> Bool? in sd_streak(handle, &request, error) == 0 ? true : nil }
            return HabitStreak(current: Int(request.current), longest: Int(request.longest))
        }
    }

    /// A role call over `count` days from `first`, for this binding.
    private func days(first: LocalDay, count: Int) -> sd_days {
        var request = sd_days()
        request.binding = reference
        request.use_range = usesRangeForms ? 1 : 0
        request.first_ordinal = Int32(first.ordinal)
        request.count = Int32(count)
        return request
    }

    /// Runs `body` with a streak call over the outcome arrays; its pointers are valid only inside.
    private func withOutcomes<T>(
        first: LocalDay, ordinals: [Int32]?, status: [UInt8], due: [UInt8], totals: [Double], progress: [Double], carry: [Int64]?,
        _ body: (inout sd_days) throws -> T
    ) throws -> T {
        try status.withUnsafeBufferPointer { status in
            try due.withUnsafeBufferPointer { due in
                try totals.withUnsafeBufferPointer { totals in
                    try progress.withUnsafeBufferPointer { progress in
                        try Self.withOptional(ordinals) { ordinals in
                            try Self.withOptional(carry) { carry in
                                var request = self.days(first: first, count: status.count)
                                request.status = status.baseAddress
                                request.due = due.baseAddress
                                request.totals = totals.baseAddress
                                request.progress = progress.baseAddress
                                request.ordinals = ordinals
                                request.carry = carry
                                return try body(&request)
                            }
                        }
                    }
                }
            }
        }
    }

    private static func withOptional<Element, T>(_ array: [Element]?, _ body: (UnsafePointer<Element>?) throws -> T) throws -> T {
        guard let array else { return try body(nil) }
        return try array.withUnsafeBufferPointer { try body($0.baseAddress) }
    }
}
