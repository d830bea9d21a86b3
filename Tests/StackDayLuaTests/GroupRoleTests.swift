import Foundation
import Testing
import StackDay
import StackDayLua

/// The group role: built-in group rules over members' days, a user's own rule in Lua, and what a
/// group's day is from its members and its rule.
@Suite("Group role")
struct GroupRoleTests {
    /// A member's day from one mark: Y done, N missed, - skipped, . not due, P pending, or a
    /// share such as 0.5 (missed at that progress).
    static func member(_ name: String, _ mark: String, total: Double? = nil, goal: Double = 1, unit: String = "") -> GroupMemberDay {
        let state: EntryState
        let progress: Double
        switch mark {
        case "Y": (state, progress) = (.completed, 1)
        case "N": (state, progress) = (.missed, 0)
        case "-": (state, progress) = (.skipped, 0)
        case ".": (state, progress) = (.notDue, 0)
        case "P": (state, progress) = (.pending, 0)
        default: (state, progress) = (.missed, Double(mark) ?? 0)
        }
        return GroupMemberDay(name: name, state: state, progress: progress, total: total ?? progress * goal, goal: goal, unit: unit)
    }

    /// Days of three members (water, stretch, read), one string of marks a day.
    static func days(_ marks: [String]) -> [[GroupMemberDay]] {
        marks.map { day in zip(["water", "stretch", "read"], day.split(separator: " ").map(String.init)).map { member($0, $1) } }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let policy: String
        let params: [String: JSONValue]
        let marks: [String]
        let progress: [Double]
        var testDescription: String { "\(policy) \(params.isEmpty ? "" : "\(params) ")over \(marks)" }
    }

    static let cases: [Case] = [
        // met, partial, skipped, not-due members
        Case(policy: "all", params: [:], marks: ["Y Y Y", "Y N Y", "Y - Y", "Y . .", ". . .", "0.5 Y Y", "- - -"],
             progress: [1, 2.0 / 3, 1, 1, 0, 2.5 / 3, 0]),
        Case(policy: "any", params: [:], marks: ["N N Y", "N N N", "0.5 0.25 N", "- - Y", "- - -", ". Y ."],
             progress: [1, 0, 0.5, 1, 0, 1]),
        Case(policy: "at-least", params: ["count": .number(2)], marks: ["Y Y N", "Y N N", "Y - N", "0.5 0.5 Y", "Y Y Y", ". Y Y"],
             progress: [1, 0.5, 0.5, 0.75, 1, 1]),
        Case(policy: "at-least", params: [:], marks: ["N N Y", "N N N"], progress: [1, 0]),
    ]

    @Test("each built-in group rule over members met, partly met, skipped and not due", arguments: cases)
    func builtIns(_ example: Case) throws {
        let fixture = try PolicyFixture()
        let binding = try fixture.library.policy(named: example.policy).bind(parameters: example.params, startedOn: day("2026-10-01"), goal: 1, unit: "")
        let days = LocalDayRange(day("2026-10-01"), day("2026-10-01").adding(days: example.marks.count - 1))
        let answers = try LuaGroupPolicy(binding: binding).progress(days: days, members: Self.days(example.marks))
        #expect(answers.count == example.progress.count)
        for (answer, expected) in zip(answers, example.progress) { #expect(abs(answer - expected) < 1e-9, "\(answers) against \(example.progress)") }
    }

    @Test("sum adds the members' totals in one unit toward its goal, and names members of another unit")
    func sum() throws {
        let fixture = try PolicyFixture()
        let binding = try fixture.library.policy(named: "sum").bind(parameters: ["goal": .number(3)], startedOn: day("2026-10-01"), goal: 1, unit: "")
        let hours = [[Self.member("math", "Y", total: 2, unit: "hours"), Self.member("economics", "N", total: 0.5, unit: "hours")],
                     [Self.member("math", "Y", total: 2, unit: "hours"), Self.member("economics", "Y", total: 1.5, unit: "hours")]]
        #expect(try binding.group(first: day("2026-10-01"), members: hours) == [2.5 / 3, 1])
        let mixed = [[Self.member("math", "Y", total: 2, unit: "hours"), Self.member("reading", "Y", total: 30, unit: "pages")]]
        let error = policyError { _ = try binding.group(first: day("2026-10-01"), members: mixed) }
        #expect(error?.message.contains("one unit") == true && error?.message.contains("reading") == true, "\(String(describing: error))")
        #expect(policyError { _ = try fixture.library.policy(named: "sum").bind(parameters: [:], startedOn: day("2026-10-01"), goal: 1, unit: "") }?
            .message.contains("goal must be a number above 0") == true)
        #expect(policyError { _ = try fixture.library.policy(named: "at-least").bind(parameters: ["count": .number(0.5)], startedOn: day("2026-10-01"), goal: 1, unit: "") }?
            .message.contains("count must be a whole number") == true)
    }

    static let weighted = """
    -- A weighted routine: each member counts by its weight; done at 1.
    return {
      description = "A weighted routine: done when the weights of the members done add up to 1.",
      params = { weights = {} },
      examples = {
        { members = {{ name = "water", status = "completed" }, { name = "read", status = "missed" }},
          params = { weights = { water = 0.25, read = 0.75 } }, group = 0.25 },
      },
      group = function(members, params, day)
        local sum = 0
        for _, m in ipairs(members) do
          sum = sum + (params.weights[m.name] or 0) * m.progress
        end
        if day.weekday == 7 then return 1 end
        return sum
      end,
    }
    """

    @Test("a user's own group rule reads members by name, its parameters and the day; policy check runs its examples")
    func ownRule() throws {
        let fixture = try PolicyFixture(["weighted": Self.weighted])
        let policy = try fixture.library.policy(named: "weighted")
        #expect(policy.info.roles == [.group])
        let report = PolicyChecker(library: fixture.library).check(policy)
        #expect(report.failures == [] && report.passed == 1)
        let binding = try policy.bind(parameters: ["weights": .object(["water": .number(0.25), "stretch": .number(0.25), "read": .number(0.5)])],
                                      startedOn: day("2026-10-03"), goal: 1, unit: "")
        // 2026-10-03 is a Saturday, 10-04 a Sunday (every Sunday is a rest day here).
        let answers = try binding.group(first: day("2026-10-03"), members: Self.days(["Y N Y", "N N N", "Y Y N"]))
        #expect(answers == [0.75, 1, 0.5])
    }

    @Test("a group rule's wrong answer names the role, the day and the line that gave it")
    func wrongAnswer() throws {
        let fixture = try PolicyFixture(["broken": "return {\n  group = function(members, params, day)\n    return \"done\"\n  end,\n}\n"])
        let binding = try fixture.library.policy(named: "broken").bind(parameters: [:], startedOn: day("2026-10-01"), goal: 1, unit: "")
        let error = policyError { _ = try binding.group(first: day("2026-10-01"), members: Self.days(["Y Y Y"])) }
        #expect(error?.message.contains("group returned string for 2026-10-01; expected a number from 0 to 1") == true, "\(String(describing: error))")
        #expect(error?.line == 3, "\(String(describing: error))")
    }

    @Test("a case with members checks the group role and says what is wrong with a case")
    func caseShapes() throws {
        let fixture = try PolicyFixture(["grp": """
        return {
          examples = {
            { members = "YN", group = 0.5 },
            { members = "YN", group = 1, name = "expects too much" },
            { members = "YX", group = 1, name = "bad mark" },
            { members = {{ status = "finished" }}, group = 1, name = "bad status" },
          },
          group = function(members) local n = 0 for _, m in ipairs(members) do n = n + m.progress end return n / #members end,
        }
        """])
        let report = PolicyChecker(library: fixture.library).check(try fixture.library.policy(named: "grp"))
        #expect(report.passed == 1)
        let failures = report.failures.joined(separator: "\n")
        #expect(failures.contains("returned 0.5, expected 1"), "\(failures)")
        #expect(failures.contains("unknown mark at position 2"), "\(failures)")
        #expect(failures.contains("status \"finished\""), "\(failures)")
    }

    @Test("a group's day: not due when no member is, skipped when every due member is, else as a habit's")
    func dayStates() {
        let today = day("2026-10-10"), past = day("2026-10-09")
        func state(_ marks: String, _ progress: Double, on day: LocalDay) -> EntryState {
            GroupDayState.state(day: day, today: today, members: Self.days([marks])[0], progress: progress)
        }
        #expect(state(". . .", 0, on: past) == .notDue)
        #expect(state("- - .", 0, on: past) == .skipped)
        #expect(state("- N .", 0, on: past) == .missed)
        #expect(state("- P .", 0, on: today) == .pending)
        #expect(state("Y Y .", 1, on: past) == .completed)
        #expect(state("Y - -", 1, on: past) == .completed)
        #expect(state("Y Y Y", 1, on: today.adding(days: 1)) == .upcoming)
        let entry = GroupDayState.entry(day: past, today: today, members: Self.days(["Y N ."])[0], progress: 0.5)
        #expect(entry.isDue && entry.total == 1 && entry.state == .missed && entry.progress == 0.5)
    }
}
