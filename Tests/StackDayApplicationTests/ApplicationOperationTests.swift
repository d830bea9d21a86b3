import Foundation
import StackDay
import StackDayApplication
import StackDayLua
import StackDayTestSupport
import Testing

/// Each application operation by itself, on an in-memory store at a fixed time: what it takes by
/// default, what it refuses (naming the field as the surface spells it) and the view it answers.
@Suite("application operations")
struct ApplicationOperationTests {
    /// 2026-10-13 23:00 in Seoul.
    static func application() throws -> Application {
        let seoul = try #require(TimeZone(identifier: "Asia/Seoul"))
        let clock = FixedClock(Date(timeIntervalSince1970: 1_791_900_000))
        return Application(context: HabitContext(store: InMemoryHabitStore(), clock: clock, boundary: DayBoundary(timeZone: seoul),
                                                 policies: try PolicyLibrary(searchPath: [])))
    }

    static func day(_ text: String) throws -> LocalDay { try LocalDay(iso: text) }

    @Test("create: defaults are goal 1, no unit, today, daily, goal, strict; parameters alone are the default policy's")
    func create() throws {
        let app = try Self.application()
        let view = try app.createHabit(CreateHabitRequest(name: "stretch", rules: HabitRules()))
        #expect(view.habit.name == "stretch" && view.habit.goal == 1 && view.habit.unit == "" && view.habit.startedOn == app.today)
        #expect([view.habit.schedule.name, view.habit.latest.progress.name, view.habit.latest.streak.name] == ["daily", "goal", "strict"])
        let grace = try app.createHabit(CreateHabitRequest(name: "read", rules: HabitRules(goal: 20, unit: "pages", start: Self.day("2026-10-01"),
                                                                                             policies: [.streak: "grace"], reminders: [try ReminderTime(parsing: "21:00")])))
        #expect(grace.habit.latest.streak.name == "grace" && grace.habit.latest.reminders.map(\.description) == ["21:00"])
        #expect(throws: RequestError.self) { try app.createHabit(CreateHabitRequest(name: nil, rules: HabitRules())) }
        #expect(throws: (any Error).self) { try app.createHabit(CreateHabitRequest(name: "stretch", rules: HabitRules())) }
        #expect(try app.listHabits().habits.map(\.name) == ["stretch", "read"])
    }

    @Test("edit: nothing to change is refused, naming the fields as each surface spells them", arguments: [
        (false, "nothing to change: give at least one of --goal, --unit, --start, --schedule, --progress, --streak, --remind, --color-tag, --step, --question, --description"),
        (true, "nothing to change: give at least one of field 'goal', field 'unit', field 'start', field 'schedule', field 'progress', field 'streak', field 'remind', field 'colorTag', field 'step', field 'question', field 'description', field 'name', field 'position'"),
    ])
    func nothingToChange(_ http: Bool, _ message: String) throws {
        let app = try Self.application()
        _ = try app.createHabit(CreateHabitRequest(name: "run", rules: HabitRules()))
        #expect(throws: RequestError(message)) { try app.editHabit("run", EditHabitRequest(naming: FieldNaming(http: http))) }
        // `from` alone changes no rules.
        let from = EditHabitRequest(rules: HabitRules(unit: "km"), rulesFrom: RulesFromRequest(.retroactive), naming: FieldNaming(http: http))
        #expect(throws: RequestError.self) { try app.editHabit("run", from) }
    }

    @Test("edit: a new goal is a revision from today; a rename or a unit is not")
    func edit() throws {
        let app = try Self.application()
        _ = try app.createHabit(CreateHabitRequest(name: "run", rules: HabitRules(start: Self.day("2026-10-01"))))
        let renamed = try app.editHabit("run", EditHabitRequest(name: "jog"))
        #expect(!renamed.revised && renamed.habit.name == "jog")
        let goal = try app.editHabit("jog", EditHabitRequest(rules: HabitRules(goal: 5)))
        #expect(goal.revised && goal.habit.latest.goal == 5 && goal.habit.latest.effectiveFrom == app.today)
        let back = try app.rollback("jog")
        #expect(back.habit.latest.goal == 1 && back.takesBack == 2 && back.written.map(\.number) == [3])
    }

    @Test("record, undo, skip and unskip: today by default, a day, or the day of an instant")
    func records() throws {
        let app = try Self.application()
        _ = try app.createHabit(CreateHabitRequest(name: "water", rules: HabitRules(goal: 8, start: Self.day("2026-10-01"))))
        #expect(try app.record("water", RecordRequest()).completion.completedOn == app.today)
        let late = try app.record("water", RecordRequest(amount: 2, when: .instant(Date(timeIntervalSince1970: 1_791_810_000)), note: "late"))
        #expect(late.completion.completedOn == (try Self.day("2026-10-12")) && late.completion.note == "late")
        #expect(try app.undo("water").completion.amount == 1)
        #expect(try app.skip("water", SkipRequest(days: LocalDayRange(try Self.day("2026-10-05"), try Self.day("2026-10-06")))).skips.count == 2)
        #expect(try app.unskip("water", SkipRequest(days: LocalDayRange(try Self.day("2026-10-05"), try Self.day("2026-10-05")))).skips.count == 1)
        let log = try app.recordLog("water")
        #expect(log.records.count == 1 && log.days.last == app.today)
        #expect(throws: RequestError.self) { try app.recordLog("water", RecordLogRequest(from: Self.day("2026-10-10"), to: Self.day("2026-10-09"))) }
    }

    @Test("reads: stats, a calendar's days, a week's report, and a page of habits with its cursor")
    func reads() throws {
        let app = try Self.application()
        for name in ["a", "b", "c"] { _ = try app.createHabit(CreateHabitRequest(name: name, rules: HabitRules(start: Self.day("2026-10-01")))) }
        #expect(try app.stats(StatsRequest(habit: "b")).rows.count == 1)
        let calendar = try app.calendar(["a"], CalendarRequest(from: Self.day("2026-10-01"), to: Self.day("2026-10-07")))
        if case .days(_, let days)? = calendar.sheets.first { #expect(days.count == 7) } else { Issue.record("no days") }
        #expect(throws: RequestError.self) { try app.calendar(["a"], CalendarRequest(from: Self.day("2026-10-08"), to: Self.day("2026-10-07"))) }
        #expect(try app.weekReport(WeekReportRequest(weekOf: Self.day("2026-10-07")), language: .korean).report.firstDay == Self.day("2026-10-05"))
        let first = try app.habitPage(ListHabitsRequest(limit: 2))
        #expect(first.habits.map(\.name) == ["a", "b"] && first.next != nil)
        let second = try app.habitPage(ListHabitsRequest(limit: 2, cursor: first.next))
        #expect(second.habits.map(\.name) == ["c"] && second.next == nil)
        #expect(throws: RequestError.self) { try app.habitPage(ListHabitsRequest(cursor: "nonsense")) }
    }

    @Test("simulate: the policy's one role by default; a policy of several roles needs one named")
    func simulate() throws {
        let app = try Self.application()
        _ = try app.createHabit(CreateHabitRequest(name: "gym", rules: HabitRules(start: Self.day("2026-10-01"))))
        #expect(try app.simulate("gym", SimulateRequest(policy: "grace")).role == .streak)
        #expect(try app.simulate("gym", SimulateRequest(policy: "weekly", parameters: ["days": .array([.string("mon")])])).role == .schedule)
    }

    @Test("apply: a proposal becomes the rules of its role from its day, the role found as simulate finds it")
    func applyProposal() throws {
        let app = try Self.application()
        _ = try app.createHabit(CreateHabitRequest(name: "gym", rules: HabitRules(start: Self.day("2026-10-01"))))
        let applied = try app.applyProposal("gym", SimulateRequest(policy: "grace", parameters: ["misses": .number(1)], from: Self.day("2026-10-05")))
        let from = try Self.day("2026-10-05")
        #expect(applied.revised && applied.habit.latest.streak.name == "grace" && applied.habit.latest.effectiveFrom == from)
        #expect(applied.habit.latest.streak.parameters["misses"] == .number(1))
    }
}
