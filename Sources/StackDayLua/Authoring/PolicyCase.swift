import Foundation
import StackDay

/// One case a policy is checked against: an entry of its `examples` or `tests`, or of a
/// `NAME_test.lua` beside it. The shapes (docs/policies.md, "Testing a policy"):
///
/// - schedule: `{ day = "2026-10-05", due = true, start = "2026-10-01" }`
/// - progress: `{ total = 5, goal = 8, progress = 0.625, day = "2026-10-05" }`
/// - streak: `{ history = "YYN-Y", current = 2, longest = 2, start = "2026-10-01" }`
/// - group: `{ members = "YN-", group = 0.5, day = "2026-10-05" }`, the members as a history
///   pattern (one mark a member) or a list of `{name, status, progress, total, goal, unit}`
///
/// each with optional `params` (merged over the policy's defaults) and `name`.
public struct PolicyCase: Sendable {
    /// Where the case comes from.
    public enum Origin: String, Sendable {
        case example, test
    }

    public let fields: [String: JSONValue]
    public let origin: Origin
    /// Its number in its list, from 1.
    public let number: Int
    /// The file and line it is written on (a line when it can be found in the text).
    public let file: String
    public let line: Int?

    public init(fields: [String: JSONValue], origin: Origin, number: Int, file: String, line: Int?) {
        self.fields = fields
        self.origin = origin
        self.number = number
        self.file = file
        self.line = line
    }

    /// Its `name`, else `example 3` or `test 3`.
    public var name: String {
        if case .string(let name)? = fields["name"], !name.isEmpty { return name }
        return "\(origin.rawValue) \(number)"
    }

    /// The cases of a list (an `examples` or `tests` value, or a test file's), their lines found
    /// in `source` (`LuaCaseLines`, for `field`, or the list the file returns when nil).
    static func list(_ items: [JSONValue], origin: Origin, file: String, source: String, field: String?) -> [PolicyCase] {
        let lines = LuaCaseLines.lines(in: source, field: field)
        return items.enumerated().map { index, item in
            PolicyCase(fields: item.objectValue ?? [:], origin: origin, number: index + 1, file: file,
                       line: lines.count == items.count ? lines[index] : nil)
        }
    }

    /// Whether the case asks about no real day: a progress case without `day`, a streak case
    /// without `start`. Its errors then name no day.
    var isUndated: Bool {
        if fields["due"] != nil { return false }
        if fields["members"] != nil { return fields["day"] == nil }
        if fields["progress"] != nil { return fields["day"] == nil }
        return fields["start"] == nil
    }

    /// Runs the case on `policy`: nil when it gives the answer it states, else what it gave and
    /// what was expected. Throws what the policy throws (its file and line named).
    public func run(on policy: LoadedPolicy) throws -> String? {
        guard !fields.isEmpty else { return "is not a table" }
        let parameters = fields["params"]?.objectValue ?? [:]
        func day(_ name: String) throws -> LocalDay? {
            guard case .string(let text)? = fields[name] else { return nil }
            return try LocalDay(iso: text)
        }
        // A case without a day is about none: its calls are made on day 0 and say no day.
        let dayless = try LocalDay(year: 1970, month: 1, day: 1)
        if case .bool(let expected)? = fields["due"] {
            guard policy.info.roles.contains(.schedule) else { return "has 'due' but the policy defines no isDue" }
            guard let target = try day("day") else { return "a schedule case needs day = \"YYYY-MM-DD\"" }
            let start = try day("start") ?? target
            let binding = try policy.bind(parameters: parameters, startedOn: start, goal: 1, unit: "")
            let answer = try binding.dueDays(LocalDayRange(target, target))[0]
            return answer == expected ? nil : "isDue(\(target)) returned \(answer), expected \(expected)"
        }
        if case .number(let expected)? = fields["progress"] {
            guard policy.info.roles.contains(.progress) else { return "has 'progress' but the policy defines no progress" }
            guard case .number(let total)? = fields["total"] else { return "a progress case needs total = N" }
            var goal = 1.0
            if case .number(let value)? = fields["goal"] { goal = value }
            let target = try day("day")
            let binding = try policy.bind(parameters: parameters, startedOn: target ?? dayless, goal: goal, unit: "")
            let answer = try binding.progress(totals: [total], days: LocalDayRange(target ?? dayless, target ?? dayless), undated: target == nil)[0]
            let on = target.map { " on \($0)" } ?? ""
            return abs(answer - expected) < 1e-9 ? nil
                : "progress(\(NumberText.format(total)), \(NumberText.format(goal)))\(on) returned \(NumberText.format(answer)), expected \(NumberText.format(expected))"
        }
        if let given = fields["members"] {
            guard policy.info.roles.contains(.group) else { return "has 'members' but the policy defines no group" }
            guard case .number(let expected)? = fields["group"] else { return "a group case needs group = N, the progress it expects" }
            let members: [GroupMemberDay]
            switch Self.members(given) {
            case .success(let days): members = days
            case .failure(let problem): return problem.reason
            }
            let target = try day("day")
            let binding = try policy.bind(parameters: parameters, startedOn: target ?? dayless, goal: 1, unit: "")
            let answer = try binding.group(first: target ?? dayless, members: [members], undated: target == nil)[0]
            let on = target.map { " on \($0)" } ?? ""
            return abs(answer - expected) < 1e-9 ? nil
                : "group(\(Self.describe(members)))\(on) returned \(NumberText.format(answer)), expected \(NumberText.format(expected))"
        }
        if case .string(let history)? = fields["history"] {
            guard policy.info.roles.contains(.streak) else { return "has 'history' but the policy defines no streak" }
            let start = try day("start")
            let binding = try policy.bind(parameters: parameters, startedOn: start ?? dayless, goal: 1, unit: "")
            let streak = try binding.streak(first: start ?? dayless, outcomes: HistoryPattern.outcomes(history), undated: start == nil)
            var expected: [String] = []
            if case .number(let current)? = fields["current"], Int(current) != streak.current { expected.append("current \(Int(current))") }
            if case .number(let longest)? = fields["longest"], Int(longest) != streak.longest { expected.append("longest \(Int(longest))") }
            return expected.isEmpty ? nil
                : "history \(history) gave current \(streak.current), longest \(streak.longest); expected \(expected.joined(separator: ", "))"
        }
        return "has none of due, progress, history or members to check"
    }

    /// Why a case's members cannot be read.
    struct MembersProblem: Error {
        let reason: String
    }

    /// A group case's members: a history pattern, one mark a member (`Y` done, `N` missed, `-`
    /// skipped, `.` not due, `P` pending), or a list of tables whose missing fields follow from
    /// the others (a member at progress 1 is completed, else pending; total is progress × goal).
    static func members(_ value: JSONValue) -> Result<[GroupMemberDay], MembersProblem> {
        if case .string(let pattern) = value {
            do {
                return .success(try HistoryPattern.outcomes(pattern).enumerated().map { index, outcome in
                    GroupMemberDay(name: "member \(index + 1)", state: outcome.status.entryState, progress: outcome.progress,
                                   total: outcome.total, goal: 1, unit: "")
                })
            } catch {
                return .failure(MembersProblem(reason: error.description))
            }
        }
        guard case .array(let items) = value, !items.isEmpty else {
            return .failure(MembersProblem(reason: "members must be a history pattern (\"YN-\") or a list of member tables"))
        }
        var members: [GroupMemberDay] = []
        for (index, item) in items.enumerated() {
            guard let fields = item.objectValue else { return .failure(MembersProblem(reason: "member \(index + 1) is not a table")) }
            let goal = fields["goal"]?.numberValue ?? 1
            var state: EntryState?
            if let text = fields["status"]?.stringValue {
                guard let status = StreakOutcome.Status(rawValue: text) else {
                    return .failure(MembersProblem(reason: "member \(index + 1) has status \"\(text)\"; use one of \(StreakOutcome.Status.allCases.map(\.rawValue).joined(separator: ", "))"))
                }
                state = status.entryState
            }
            let progress = fields["progress"]?.numberValue ?? (state == .completed ? 1 : 0)
            members.append(GroupMemberDay(name: fields["name"]?.stringValue ?? "member \(index + 1)",
                                          state: state ?? (progress >= 1 ? .completed : .pending), progress: progress,
                                          total: fields["total"]?.numberValue ?? progress * goal, goal: goal,
                                          unit: fields["unit"]?.stringValue ?? ""))
        }
        return .success(members)
    }

    /// Members as a failure names them: `water completed 1, read pending 0.25`.
    static func describe(_ members: [GroupMemberDay]) -> String {
        members.map { "\($0.name) \(StreakOutcome.Status($0.state).rawValue) \(NumberText.format($0.progress))" }.joined(separator: ", ")
    }
}
