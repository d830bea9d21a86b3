import Foundation
import StackDay

/// One case a policy is checked against: an entry of its `examples` or `tests`, or of a
/// `NAME_test.lua` beside it. The shapes (docs/policies.md, "Testing a policy"):
///
/// - schedule: `{ day = "2026-10-05", due = true, start = "2026-10-01" }`
/// - progress: `{ total = 5, goal = 8, progress = 0.625, day = "2026-10-05" }`
/// - streak: `{ history = "YYN-Y", current = 2, longest = 2, start = "2026-10-01" }`
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
        return "has none of due, progress or history to check"
    }
}
