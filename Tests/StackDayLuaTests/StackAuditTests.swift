import CLuaHost
import Foundation
import Testing
import StackDay
import StackDayLua
import StackDayTestSupport

/// The C core stays inside Lua's stack guarantee: each of its C functions fills at most
/// LUA_MINSTACK slots of its frame, or reserves more with `lua_checkstack` first. The host notes
/// the highest depth of every frame (`sd_stack_audit`); this runs every operation and reads it.
@Suite("C boundary: the Lua stack")
struct StackAuditTests {
    /// A schedule, a progress rule and a streak rule that call the calendar and string functions.
    static let busy = """
    local f = calendar.filter({ weekdays = { { weekday = 1 }, { weekday = 3 }, { weekday = 5 } } })
    return {
      isDue = function(day, params, habit)
        local y, m, d = calendar.civil(day.ordinal)
        local n = calendar.nthWeekday(y, m, 1, 1)
        local picked = calendar.select(day.ordinal, day.ordinal, f)
        local text = string.gsub(tostring(d), "%d", "%0")
        return #picked > 0 or string.find(text, "1") ~= nil or n == day.ordinal or calendar.isLeapYear(y) and calendar.daysInMonth(y, m) == d
      end,
      progress = function(total, goal, params, day) return math.min(1, total / goal) end,
      streak = function(state, day, outcome)
        for word in string.gmatch(outcome.status, "%a+") do state.last = word end
        if outcome.status == "completed" then state.current = state.current + 1 end
        if outcome.status == "missed" then state.current = 0 end
        if state.current > state.longest then state.longest = state.current end
        return state, string.match(outcome.status, "^(%a)") and ("because " .. outcome.status) or nil
      end,
    }
    """

    /// Every audited function: name, the most it filled, what it may fill, its worst overrun.
    func audit() -> [(name: String, used: Int, mayUse: Int, overrun: Int)] {
        var buffer = [CChar](repeating: 0, count: 1 << 14)
        let length = sd_stack_audit(&buffer, buffer.count)
        let text = String(decoding: buffer.prefix(min(length, buffer.count - 1)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 4, let used = Int(fields[1]), let may = Int(fields[2]), let over = Int(fields[3]) else { return nil }
            return (String(fields[0]), used, may, over)
        }
    }

    @Test("every operation stays within LUA_MINSTACK or what it reserved; the streak fold needs and reserves more")
    func highWaterMarks() throws {
        let fixture = try PolicyFixture(["busy": Self.busy])
        let store = InMemoryHabitStore()
        let today = day("2026-10-20")
        let zone = TimeZone(secondsFromGMT: 0)!
        let context = HabitContext(store: store, clock: FixedClock(today.firstInstant(in: zone).addingTimeInterval(3600)),
                                   boundary: DayBoundary(timeZone: zone), policies: fixture.library)
        let start = today.adding(days: -60)
        try CreateHabit(context: context)(name: "busy", startedOn: start, schedule: PolicyChoice(name: "busy"),
                                          progress: PolicyChoice(name: "busy"), streak: PolicyChoice(name: "busy"))
        try CreateHabit(context: context)(name: "grace", startedOn: start, streak: PolicyChoice(name: "grace"))
        try CreateHabit(context: context)(name: "quota", startedOn: start, schedule: try PolicyChoice(name: "times-per-week", parametersJSON: #"{"times":2}"#),
                                          streak: PolicyChoice(name: "freeze"))
        try CreateHabit(context: context)(name: "rrule", startedOn: start,
                                          schedule: try PolicyChoice(name: "rrule", parametersJSON: #"{"rule":"FREQ=MONTHLY;BYDAY=MO,-1FR;BYMONTHDAY=1,15,-1"}"#))
        for offset in stride(from: 0, through: 60, by: 2) {
            for name in ["busy", "grace", "quota"] { try RecordCompletion(context: context)(habitName: name, on: today.adding(days: -offset)) }
        }
        for result in try SummarizeHabits(context: context)() { _ = try result.get() }
        _ = try BuildWeeklyReport(context: context)()
        for name in ["busy", "grace", "quota", "rrule"] {
            _ = try LoadTimeline(context: context)(habitName: name, through: today.adding(days: 30))
            _ = try ExplainHabit(context: context)(.name(name), from: start, to: today)
        }
        // Without the range forms: every day is its own call.
        let binding = try fixture.library.policy(named: "daily").bind(parameters: [:], startedOn: start, goal: 1, unit: "", usesRangeForms: false)
        _ = try binding.dueDays(LocalDayRange(start, today))

        let records = audit()
        let minimum = Int(sd_lua_minstack())
        #expect(minimum == 20)
        for name in ["op_bind", "op_schedule", "op_progress", "op_streak", "op_quota", "cal_select", "cal_civil", "text_gsub", "text_gmatch", "gmatch_step"] {
            #expect(records.contains { $0.name == name }, "\(name) ran and was audited: \(records.map(\.name))")
        }
        for record in records {
            #expect(record.overrun <= 0, "\(record.name) filled \(record.used) slots; it may fill \(record.mayUse)")
            #expect(record.used <= record.mayUse, "\(record.name)")
            if record.mayUse == minimum { #expect(record.used <= minimum, "\(record.name) needs lua_checkstack") }
        }
        // The fold holds more than LUA_MINSTACK values: it reserves them, and the audit sees the difference.
        let streak = try #require(records.first { $0.name == "op_streak" })
        #expect(streak.used > minimum && streak.mayUse >= streak.used, "op_streak: \(streak)")
    }
}
