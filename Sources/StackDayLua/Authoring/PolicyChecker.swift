import Foundation
import StackDay

/// Checks a policy file: it compiled, its roles have the right shape, and its examples pass.
///
/// Example formats: `{ day = "2026-10-05", due = true, params = {...}, start = "…" }` for a
/// schedule, `{ total = 5, goal = 8, progress = 0.625 }` for progress, and
/// `{ history = "YYN-Y", current = 2, longest = 2 }` for a streak rule.
public struct PolicyChecker {
    public let library: PolicyLibrary

    public init(library: PolicyLibrary) {
        self.library = library
    }

    public func check(_ policy: LoadedPolicy) -> PolicyCheckReport {
        var failures: [String] = []
        var passed = 0
        let lines = policy.source.components(separatedBy: "\n")
        var searchFrom = lines.firstIndex { $0.contains("examples") } ?? 0

        for (index, example) in policy.info.examples.enumerated() {
            let number = index + 1
            guard let fields = example.objectValue else {
                failures.append("example \(number): is not a table")
                continue
            }
            let key = Self.keyText(fields)
            var location = ""
            if let key, let line = lines[min(searchFrom, lines.count)...].firstIndex(where: { $0.contains(key) }) {
                location = " (line \(line + 1))"
                searchFrom = line + 1
            }
            do {
                if let failure = try run(fields, policy: policy) {
                    failures.append("example \(number)\(location): \(failure)")
                } else {
                    passed += 1
                }
            } catch {
                failures.append("example \(number)\(location): \(error)")
            }
        }
        return PolicyCheckReport(
            policy: policy.name, file: policy.file,
            roles: PolicyRole.allCases.filter(policy.info.roles.contains), examples: policy.info.examples.count, passed: passed, failures: failures
        )
    }

    /// A string that identifies the example in the source, to point at its line.
    static func keyText(_ fields: [String: JSONValue]) -> String? {
        for name in ["day", "history"] {
            if case .string(let value)? = fields[name] { return "\"\(value)\"" }
        }
        if case .number(let total)? = fields["total"] { return "total = \(NumberText.format(total))" }
        return nil
    }

    private func run(_ fields: [String: JSONValue], policy: LoadedPolicy) throws -> String? {
        let parameters = fields["params"]?.objectValue ?? [:]
        func day(_ name: String) throws -> LocalDay? {
            guard case .string(let text)? = fields[name] else { return nil }
            return try LocalDay(iso: text)
        }
        if case .bool(let expected)? = fields["due"] {
            guard policy.info.roles.contains(.schedule) else { return "has 'due' but the policy defines no isDue" }
            guard let target = try day("day") else { return "a schedule example needs day = \"YYYY-MM-DD\"" }
            let start = try day("start") ?? target
            let binding = try policy.bind(parameters: parameters, startedOn: start, goal: 1, unit: "")
            let answer = try binding.dueDays(LocalDayRange(target, target))[0]
            return answer == expected ? nil : "isDue(\(target)) returned \(answer), expected \(expected)"
        }
        if case .number(let expected)? = fields["progress"] {
            guard policy.info.roles.contains(.progress) else { return "has 'progress' but the policy defines no progress" }
            guard case .number(let total)? = fields["total"] else { return "a progress example needs total = N" }
            var goal = 1.0
            if case .number(let value)? = fields["goal"] { goal = value }
            let target = try day("day") ?? LocalDay(date: Date(timeIntervalSince1970: 0), timeZone: TimeZone(secondsFromGMT: 0) ?? .gmt)
            let binding = try policy.bind(parameters: parameters, startedOn: target, goal: goal, unit: "")
            let answer = try binding.progress(totals: [total], days: LocalDayRange(target, target))[0]
            return abs(answer - expected) < 1e-9 ? nil
                : "progress(\(NumberText.format(total)), \(NumberText.format(goal))) returned \(NumberText.format(answer)), expected \(NumberText.format(expected))"
        }
        if case .string(let history)? = fields["history"] {
            guard policy.info.roles.contains(.streak) else { return "has 'history' but the policy defines no streak" }
            let start = try day("start") ?? LocalDay(date: Date(timeIntervalSince1970: 0), timeZone: TimeZone(secondsFromGMT: 0) ?? .gmt)
            let binding = try policy.bind(parameters: parameters, startedOn: start, goal: 1, unit: "")
            let streak = try binding.streak(first: start, outcomes: HistoryPattern.outcomes(history))
            var expected: [String] = []
            if case .number(let current)? = fields["current"], Int(current) != streak.current { expected.append("current \(Int(current))") }
            if case .number(let longest)? = fields["longest"], Int(longest) != streak.longest { expected.append("longest \(Int(longest))") }
            return expected.isEmpty ? nil
                : "history \(history) gave current \(streak.current), longest \(streak.longest); expected \(expected.joined(separator: ", "))"
        }
        return "has none of due, progress or history to check"
    }
}
