import Foundation
import Testing
import StackDay
import StackDayLua

@Suite("Lua host: budgets, memory and sharing")
struct HostTests {
    static let counting = "return { isDue = function(day, params) local n = 0 for i = 1, params.loops do n = n + 1 end return n > 0 end, params = { loops = 1 } }"

    func due(_ fixture: PolicyFixture, loops: Int) throws -> Bool {
        let binding = try fixture.library.policy(named: "counting").bind(parameters: ["loops": .number(Double(loops))], startedOn: day("2026-10-05"), goal: 1, unit: "")
        return try binding.dueDays(LocalDayRange(day("2026-10-05"), day("2026-10-05")))[0]
    }

    @Test("the instruction budget is per call: under it answers, over it fails, and the next call answers again", arguments: [
        (50_000, 1_000, true), (50_000, 200_000, false), (5_000_000, 200_000, true),
    ])
    func instructionBudget(instructions: Int, loops: Int, answers: Bool) throws {
        let fixture = try PolicyFixture(["counting": Self.counting], budget: PolicyBudget(instructions: instructions, memoryBytes: 8 << 20))
        if answers {
            #expect(try due(fixture, loops: loops))
        } else {
            let error = try #require(policyError { _ = try due(fixture, loops: loops) })
            #expect(error.kind == .instructionBudget)
        }
        #expect(try due(fixture, loops: 10))
    }

    @Test("the memory budget is per call, and what a failed call allocated is given back")
    func memoryBudget() throws {
        let fixture = try PolicyFixture(["hungry": schedule("local t = {} for i = 1, params.n do t[i] = ('x'):rep(1000) .. i end return #t > 0")],
                                        budget: PolicyBudget(instructions: 100_000_000, memoryBytes: 4 << 20))
        let host = try fixture.library.host()
        func run(_ n: Int) throws -> Bool {
            let binding = try fixture.library.policy(named: "hungry").bind(parameters: ["n": .number(Double(n))], startedOn: day("2026-10-05"), goal: 1, unit: "")
            return try binding.dueDays(LocalDayRange(day("2026-10-05"), day("2026-10-05")))[0]
        }
        #expect(try run(100))
        let error = try #require(policyError { _ = try run(100_000) })
        #expect(error.kind == .memoryBudget)
        let before = host.memoryInUse
        for _ in 0..<5 { _ = policyError { _ = try run(100_000) } }
        // Repeated failures do not pile up: the state stays near what it held (a collection may lag).
        #expect(host.memoryInUse < before + (8 << 20), "\(host.memoryInUse) vs \(before)")
        #expect(try run(100))
    }

    @Test("only the libraries a policy may use are ever loaded into the state", arguments: [
        ("io", false), ("os", false), ("package", false), ("debug", false), ("coroutine", false),
        ("_G", true), ("string", true), ("table", true), ("math", true), ("utf8", true),
    ])
    func librariesLoaded(name: String, loaded: Bool) throws {
        let host = try LuaHost()
        #expect(host.hasLoadedLibrary(name) == loaded)
    }

    /// What each calendar function is checked with: a schedule built on it, and the same rule in Swift.
    static let calendarRules: [(String, String)] = [
        ("round trip", "local y, m, d = calendar.civil(day.ordinal) return calendar.ordinal(y, m, d) == day.ordinal and d == day.day"),
        // The view steps from day to day within a month and is written whole at a month's turn: every field, every day.
        ("the day view's fields", """
         local y, m, d = calendar.civil(day.ordinal)
         return day.year == y and day.month == m and day.day == d and day.weekday == calendar.weekday(day.ordinal)
           and day.yearDay == day.ordinal - calendar.ordinal(y, 1, 1) + 1 and day.daysInMonth == calendar.daysInMonth(y, m)
         """),
        ("first of the month", "return select(3, calendar.civil(day.ordinal)) == 1"),
        ("Mondays", "return calendar.weekday(day.ordinal) == 1"),
        ("days of 29-day months", "local y, m = calendar.civil(day.ordinal) return calendar.daysInMonth(y, m) == 29"),
        ("days of leap years", "return calendar.isLeapYear((calendar.civil(day.ordinal)))"),
        ("last Fridays", "local y, m = calendar.civil(day.ordinal) return calendar.nthWeekday(y, m, -1, 5) == day.ordinal"),
        ("second Tuesdays", "local y, m = calendar.civil(day.ordinal) return calendar.nthWeekday(y, m, 2, 2) == day.ordinal"),
        ("fifth Mondays", "local y, m = calendar.civil(day.ordinal) return calendar.nthWeekday(y, m, 5, 1) == day.ordinal"),
        ("select: the second-last day of February and August",
         "return calendar.select(day.ordinal, day.ordinal, {months = {2, 8}, monthDays = {-2}})[1] == day.ordinal"),
        ("select: the 100th and the last day of the year", "return #calendar.select(day.ordinal, day.ordinal, {yearDays = {100, -1}}) == 1"),
        ("select: the third Sunday of the year",
         "return #calendar.select(day.ordinal, day.ordinal, calendar.filter({weekdays = {{weekday = 7, nth = 3}}})) == 1"),
        ("select: Mondays of ISO week 1 and of the last week",
         "return #calendar.select(day.ordinal, day.ordinal, {weekNumbers = {1, -1}, weekdays = {{weekday = 1}}}) == 1"),
        ("select: every third day from 2000-01-01 that is a weekday",
         "local hits = calendar.select(day.ordinal - 2, day.ordinal, {weekdays = {{weekday = 1}, {weekday = 2}, {weekday = 3}, {weekday = 4}, {weekday = 5}}}, calendar.ordinal(2000, 1, 1), 3) return hits[#hits] == day.ordinal"),
        // One day asked at a time: the walk expands the day's whole period, so positions count in it.
        ("occurrences: the last weekday of each month",
         "return calendar.occurrences(day.ordinal, day.ordinal, {weekdays = {{weekday = 1}, {weekday = 2}, {weekday = 3}, {weekday = 4}, {weekday = 5}}}, {period = 'month', positions = {-1}})[1] == day.ordinal"),
        ("occurrences: Tuesdays and Sundays of every second week from 2026-01-06, weeks from Sunday",
         "return #calendar.occurrences(day.ordinal, day.ordinal, {weekdays = {{weekday = 2}, {weekday = 7}}, weekStart = 7}, {period = 'week', every = 2, anchor = calendar.ordinal(2026, 1, 6)}) == 1"),
        ("occurrences: the first and the last Monday of each ISO week-numbering year",
         "return #calendar.occurrences(day.ordinal, day.ordinal, {weekdays = {{weekday = 1}}}, {period = 'weekYear', positions = {1, -1}}) == 1"),
        ("occurrences: the second-last day of every third month from 2000-01",
         "return #calendar.occurrences(day.ordinal, day.ordinal, {}, {period = 'month', every = 3, anchor = calendar.ordinal(2000, 1, 1), positions = {-2}}) == 1"),
    ]

    /// ISO 8601 week number of `day` and the number of weeks of its week-numbering year.
    static func isoWeek(_ day: LocalDay) -> (week: Int, weeks: Int) {
        let thursday = day.adding(days: 4 - day.weekday)
        let year = thursday.year
        let jan1 = (try? LocalDay(year: year, month: 1, day: 1)) ?? day
        let leap = jan1.isInLeapYear
        let weeks = jan1.weekday == 4 || (leap && jan1.weekday == 3) ? 53 : 52
        return ((thursday.yearDay - 1) / 7 + 1, weeks)
    }

    static func swiftRule(_ name: String, _ day: LocalDay) -> Bool {
        switch name {
        case "round trip", "the day view's fields": true
        case "first of the month": day.day == 1
        case "Mondays": day.weekday == 1
        case "days of 29-day months": day.daysInMonth == 29
        case "days of leap years": day.isInLeapYear
        case "last Fridays": day.weekday == 5 && day.day + 7 > day.daysInMonth
        case "second Tuesdays": day.weekday == 2 && (8...14).contains(day.day)
        case "fifth Mondays": day.weekday == 1 && day.day > 28
        case "select: the second-last day of February and August": [2, 8].contains(day.month) && day.day == day.daysInMonth - 1
        case "select: the 100th and the last day of the year": day.yearDay == 100 || (day.month == 12 && day.day == 31)
        case "select: the third Sunday of the year": day.weekday == 7 && (day.yearDay - 1) / 7 == 2
        case "select: Mondays of ISO week 1 and of the last week": day.weekday == 1 && [1, isoWeek(day).weeks].contains(isoWeek(day).week)
        case "select: every third day from 2000-01-01 that is a weekday":
            day.weekday <= 5 && ((day.ordinal - ((try? LocalDay(year: 2000, month: 1, day: 1))?.ordinal ?? 0)) % 3 + 3) % 3 == 0
        case "occurrences: the last weekday of each month":
            day.weekday <= 5 && (day.day == day.daysInMonth || (day.weekday == 5 && day.daysInMonth - day.day <= 2))
        case "occurrences: Tuesdays and Sundays of every second week from 2026-01-06, weeks from Sunday":
            [2, 7].contains(day.weekday) && Self.weeksApart(day, (try? LocalDay(year: 2026, month: 1, day: 6)) ?? day) % 2 == 0
        case "occurrences: the first and the last Monday of each ISO week-numbering year":
            day.weekday == 1 && [1, isoWeek(day).weeks].contains(isoWeek(day).week)
        case "occurrences: the second-last day of every third month from 2000-01":
            day.day == day.daysInMonth - 1 && ((day.year - 2000) * 12 + day.month - 1) % 3 == 0
        default: false
        }
    }

    /// How many weeks starting on Sunday lie between the weeks of `day` and `anchor`.
    static func weeksApart(_ day: LocalDay, _ anchor: LocalDay) -> Int {
        func sunday(_ d: LocalDay) -> Int { d.ordinal - d.weekday % 7 }
        return abs(sunday(day) - sunday(anchor)) / 7
    }

    @Test("calendar functions answer as LocalDay does, 1899 to 2101", arguments: calendarRules.map(\.0))
    func calendar(rule: String) throws {
        let body = try #require(Self.calendarRules.first { $0.0 == rule }?.1)
        // Correctness over 73,000 days in one call of a debug build, not the time budget (the
        // budget tests have their own): with tests running side by side, a call can near 500 ms.
        let fixture = try PolicyFixture(["cal": schedule(body)], budget: PolicyBudget(cpuMilliseconds: 10_000))
        let due = try fixture.dueDays("cal", from: "1899-12-01", to: "2101-01-31")
        let expected = LocalDayRange(day("1899-12-01"), day("2101-01-31")).filter { Self.swiftRule(rule, $0) }.map(\.iso)
        #expect(due.count == expected.count, "\(rule)")
        #expect(due == expected, "\(rule)")
        #expect(!expected.isEmpty)
    }

    @Test("the calendar is read-only and checks its arguments", arguments: [
        ("calendar.civil = nil return true", "calendar cannot change"),
        ("return calendar.daysInMonth(2026, 13) > 0", "month must be 1 to 12"),
        ("return calendar.nthWeekday(2026, 1, 0, 1) ~= nil", "nth must be 1 to 5 or -1 to -5"),
        ("return calendar.ordinal('x', 1, 1) > 0", "number expected"),
        ("return #calendar.select(0, 146098, {}) > 0", "a range of at most 400 years"),
        ("return #calendar.select(0, 9, {months = {13}}) > 0", "months holds 13, out of range"),
        ("return #calendar.select(0, 9, {weekdays = {{weekday = 8}}}) > 0", "a weekday must be 1 (Monday) to 7 (Sunday)"),
        ("return #calendar.select(0, 9, {}, 0, 0) > 0", "step must be 1 or more"),
        ("return #calendar.occurrences(0, 146098, {}, {period = 'day'}) > 0", "a range of at most 400 years"),
        ("return #calendar.occurrences(0, 9, {}, {period = 'fortnight'}) > 0", "calendar.occurrences: period must be"),
        ("return #calendar.occurrences(0, 9, {}, {period = 'week', every = 0}) > 0", "calendar.occurrences: every must be a whole number, 1 or more"),
        ("return #calendar.occurrences(0, 9, {}, {period = 'week', anchor = 2^60}) > 0", "calendar.occurrences: anchor must be a day number"),
        ("return #calendar.occurrences(0, 9, {}, {period = 'month', positions = {0}}) > 0", "calendar.occurrences: positions holds 0, out of range"),
        ("return #calendar.occurrences(0, 9, {months = {13}}, {period = 'month'}) > 0", "calendar.occurrences: months holds 13, out of range"),
        // A filter is opaque: its metatable is hidden and it takes no fields.
        ("local f = calendar.filter({}) assert(getmetatable(f) == 'calendar filter') assert(not pcall(function() f.x = 1 end)) error('opaque', 0)", "opaque"),
    ])
    func calendarGuards(body: String, message: String) throws {
        let fixture = try PolicyFixture(["cal": schedule(body)])
        let error = try #require(policyError { _ = try fixture.isDue("cal") })
        #expect(error.description.contains(message), "\(error)")
    }

    @Test("a native scan counts against the instruction budget", arguments: [
        "for i = 1, 1000 do calendar.select(0, 146096, {months = {1}}) end return true",
        "for i = 1, 1000 do calendar.occurrences(0, 146096, {months = {1}}, {period = 'year', positions = {1}}) end return true",
        "for i = 1, 1000 do calendar.occurrences(0, 146096, {}, {period = 'day', every = 1000000}) end return true",
    ])
    func nativeScanBudget(body: String) throws {
        let fixture = try PolicyFixture(["scan": schedule(body)], budget: PolicyBudget(instructions: 2_000_000))
        let error = try #require(policyError { _ = try fixture.isDue("scan") })
        #expect(error.kind == .instructionBudget, "\(error)")
    }

    @Test("parameters cross into Lua as JSON, whole numbers as integers", arguments: [
        (#"{"n":3}"#, "math.type(params.n) == 'integer' and params.n == 3"),
        (#"{"n":2.5,"m":-0.001}"#, "params.n == 2.5 and params.m == -0.001"),
        (#"{"s":"물 \"q\" \\ 🏃\n"}"#, "params.s == '물 \"q\" \\\\ 🏃\\n'"),
        (#"{"a":[1,[2,3],{"k":null,"t":true}],"e":[],"o":{}}"#, "#params.a == 3 and params.a[2][2] == 3 and params.a[3].k == nil and params.a[3].t and #params.e == 0 and next(params.o) == nil"),
        (#"{"key with spaces":"é"}"#, "params['key with spaces'] == 'é'"),
    ])
    func parametersAsJSON(json: String, check: String) throws {
        let fixture = try PolicyFixture(["p": schedule("return \(check)")])
        let parameters = try #require(try JSONValue(parsing: json).objectValue)
        let binding = try fixture.library.policy(named: "p").bind(parameters: parameters, startedOn: day("2026-10-05"), goal: 1, unit: "")
        #expect(try binding.dueDays(LocalDayRange(day("2026-10-05"), day("2026-10-05")))[0], "\(json)")
        #expect(try JSONValue(parsing: binding.parametersJSON()) == JSONValue.object(parameters).withoutNulls, "\(json)")
    }

    @Test("one host answers correctly when called from several threads at once")
    func sharedAcrossThreads() throws {
        let fixture = try PolicyFixture()
        let weekly = try fixture.library.policy(named: "weekly")
        let range = LocalDayRange(day("2026-01-01"), day("2026-12-31"))
        let expected = try weekly.bind(parameters: ["days": .array([.string("mon")])], startedOn: range.first, goal: 1, unit: "").dueDays(range)
        #expect(expected.filter { $0 }.count == 52)
        let results = ResultBox()
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            do {
                let binding = try weekly.bind(parameters: ["days": .array([.string("mon")])], startedOn: range.first, goal: 1, unit: "")
                results.append(try binding.dueDays(range) == expected)
            } catch {
                results.append(false)
            }
        }
        #expect(results.values == Array(repeating: true, count: 8))
    }
}

/// Collects answers from concurrent work; the lock makes it safe to share.
private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Bool] = []

    func append(_ value: Bool) {
        lock.lock()
        stored.append(value)
        lock.unlock()
    }

    var values: [Bool] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}

extension JSONValue {
    /// The value as Lua keeps it: a null member of an object is no member at all, and an empty
    /// list is the same empty table as an empty object.
    var withoutNulls: JSONValue {
        switch self {
        case .object(let members): .object(members.filter { $0.value != .null }.mapValues(\.withoutNulls))
        case .array(let items): items.isEmpty ? .object([:]) : .array(items.map(\.withoutNulls))
        default: self
        }
    }
}
