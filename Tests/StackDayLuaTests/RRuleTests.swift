import Foundation
import Testing
import StackDay
import StackDayLua

/// One rule with the occurrences python-dateutil gives for it (scripts/rrule_fixtures.py).
struct RRuleCase: CustomStringConvertible, Sendable {
    let name: String
    let start: String
    let rule: String
    let to: String
    let due: [String]
    var description: String { name }

    static let all: [RRuleCase] = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/rrule-cases.json")
        guard let text = try? String(contentsOf: file, encoding: .utf8), case .array(let items)? = try? JSONValue(parsing: text) else { return [] }
        return items.compactMap { item in
            guard let fields = item.objectValue, case .string(let name)? = fields["name"], case .string(let start)? = fields["start"],
                  case .string(let rule)? = fields["rule"], case .string(let to)? = fields["to"], case .array(let due)? = fields["due"]
            else { return nil }
            return RRuleCase(name: name, start: start, rule: rule, to: to, due: due.compactMap { if case .string(let d) = $0 { d } else { nil } })
        }
    }()
}

@Suite("rrule policy")
struct RRuleTests {
    @Test func fixturesLoaded() {
        #expect(RRuleCase.all.count >= 55)
    }

    @Test("agrees with python-dateutil on RFC 5545's examples and our own", arguments: RRuleCase.all)
    func agrees(with example: RRuleCase) throws {
        let fixture = try PolicyFixture()
        let due = try fixture.dueDays("rrule", from: example.start, to: example.to, params: ["rule": .string(example.rule)])
        #expect(due == example.due)
    }

    @Test("one call a day gives the same days as the range form", arguments: RRuleCase.all)
    func perDay(example: RRuleCase) throws {
        let fixture = try PolicyFixture()
        let due = try fixture.dueDays("rrule", from: example.start, to: example.to, params: ["rule": .string(example.rule)], rangeForms: false)
        #expect(due == example.due)
    }

    @Test("BYWEEKNO without BYDAY takes DTSTART's weekday (RFC 5545 3.3.10; libical, ical4j), not every day of the week", arguments: [
        ("1997-05-12", "MO"), ("1997-05-14", "WE"), ("2020-01-05", "SU"),
    ])
    func weekNumberTakesStartWeekday(start: String, weekday: String) throws {
        let fixture = try PolicyFixture()
        for week in ["20", "1", "-1", "1,26"] {
            let bare = try fixture.dueDays("rrule", from: start, to: "2031-12-31", params: ["rule": .string("FREQ=YEARLY;BYWEEKNO=\(week)")])
            let named = try fixture.dueDays("rrule", from: start, to: "2031-12-31", params: ["rule": .string("FREQ=YEARLY;BYWEEKNO=\(week);BYDAY=\(weekday)")])
            #expect(!bare.isEmpty && bare == named, "BYWEEKNO=\(week) from \(start)")
        }
        // Another day-level part says which days: nothing is defaulted then.
        let byYearDay = try fixture.dueDays("rrule", from: "2026-01-01", to: "2027-12-31", params: ["rule": .string("FREQ=YEARLY;BYWEEKNO=1;BYYEARDAY=1,2,3,4,5")])
        #expect(byYearDay.count > 2)
    }

    @Test("the start parameter is DTSTART; the habit's start is the default")
    func startParameter() throws {
        let fixture = try PolicyFixture()
        let rule: [String: JSONValue] = ["rule": .string("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO")]
        let fromHabit = try fixture.dueDays("rrule", from: "2026-10-01", to: "2026-10-31", params: rule, start: "2026-10-05")
        #expect(fromHabit == ["2026-10-05", "2026-10-19"])
        var explicit = rule
        explicit["start"] = .string("2026-10-12")
        #expect(try fixture.dueDays("rrule", from: "2026-10-01", to: "2026-10-31", params: explicit, start: "2026-10-01") == ["2026-10-12", "2026-10-26"])
    }

    @Test("rules the engine cannot follow are refused when bound, naming the part", arguments: [
        ("FREQ=HOURLY", "below a day; the engine is day-level"),
        ("FREQ=DAILY;BYHOUR=9", "BYHOUR needs a time of day"),
        ("FREQ=DAILY;UNTIL=20261231T090000Z", "UNTIL: '20261231T090000Z' is a UTC time"),
        ("FREQ=DAILY;TZID=Asia/Seoul", "TZID needs a time of day"),
        ("FREQ=DAILY;COUNT=3;UNTIL=20261231", "COUNT and UNTIL cannot both be given"),
        ("FREQ=DAILY;COLOR=red", "unknown part COLOR"),
        ("FREQ=FORTNIGHTLY", "FREQ: 'FORTNIGHTLY' is not"),
        ("BYDAY=MO", "FREQ is required"),
        ("FREQ=WEEKLY;BYDAY=2MO", "ordinals such as 2TU are only allowed"),
        ("FREQ=MONTHLY;BYMONTHDAY=32", "BYMONTHDAY: 32 is out of range"),
        ("FREQ=MONTHLY;BYWEEKNO=3", "BYWEEKNO is only allowed with FREQ=YEARLY"),
        ("FREQ=WEEKLY;BYMONTHDAY=3", "BYMONTHDAY is not allowed with FREQ=WEEKLY"),
        ("FREQ=DAILY;BYYEARDAY=100", "BYYEARDAY is not allowed with FREQ=DAILY, FREQ=WEEKLY or FREQ=MONTHLY"),
        ("FREQ=WEEKLY;BYYEARDAY=100", "BYYEARDAY is not allowed with FREQ=DAILY, FREQ=WEEKLY or FREQ=MONTHLY"),
        ("FREQ=MONTHLY;BYYEARDAY=100", "BYYEARDAY is not allowed with FREQ=DAILY, FREQ=WEEKLY or FREQ=MONTHLY"),
        ("FREQ=MONTHLY;BYSETPOS=1", "BYSETPOS needs another BYxxx part"),
        ("FREQ=DAILY;INTERVAL=0", "INTERVAL: 0 is out of range"),
        ("FREQ=DAILY;INTERVAL=2;INTERVAL=3", "INTERVAL appears twice"),
        ("FREQ=MONTHLY;BYDAY=XX", "BYDAY: 'XX' is not a weekday"),
        ("FREQ=DAILY;WKST=FUN", "WKST: 'FUN' is not a weekday"),
    ])
    func refused(rule: String, message: String) throws {
        let fixture = try PolicyFixture()
        let error = try #require(policyError {
            _ = try fixture.library.policy(named: "rrule").bind(parameters: ["rule": .string(rule)], startedOn: day("2026-01-01"), goal: 1, unit: "")
        })
        #expect(error.kind == .parameters)
        #expect(error.message.contains(message), "\(error)")
    }

    @Test("a day far from the start is decided from its own period, not by replaying the rule")
    func pointQueriesDoNotReplay() throws {
        // 200,000 instructions cannot replay 800 years of days, but suffice to expand one year.
        let fixture = try PolicyFixture(budget: PolicyBudget(instructions: 200_000, memoryBytes: 8 << 20))
        // Expected answers from python-dateutil.
        for (rule, target, due) in [
            ("FREQ=DAILY;INTERVAL=3", "2826-01-01", true), ("FREQ=DAILY;INTERVAL=3", "2825-12-31", false),
            ("FREQ=YEARLY;BYMONTH=2;BYDAY=-1MO", "2826-02-23", true), ("FREQ=YEARLY;BYMONTH=2;BYDAY=-1MO", "2826-02-22", false),
            ("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "2826-01-30", true),
            ("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "2826-01-29", false),
            ("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", "2826-01-13", true), ("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", "2826-01-06", false),
        ] {
            #expect(try fixture.isDue("rrule", on: target, params: ["rule": .string(rule)], start: "2026-01-01") == due, "\(rule)")
        }
    }
}
