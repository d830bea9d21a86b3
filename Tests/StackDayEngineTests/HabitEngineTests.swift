import Foundation
import Testing
import StackDay
import StackDayEngine
import StackDayLua
import StackDaySQLite
import StackDayTestSupport

func day(_ text: String) -> LocalDay {
    do { return try LocalDay(iso: text) } catch { preconditionFailure("bad literal \(text)") }
}

let now = Date(timeIntervalSince1970: 1_791_723_600) // 2026-10-11T22:00:00+09:00
let boundary = DayBoundary(timeZone: TimeZone(secondsFromGMT: 9 * 3600)!)
let today = day("2026-10-11")

/// One task's habit and its seeded list of operations.
struct Script: Sendable {
    enum Operation: Sendable {
        case record(LocalDay, Double)
        case undo(LocalDay)
        case skip(LocalDay)
        case readSummaries
        case readReport
    }

    let id: UUID
    let name: String
    let goal: Double
    let unit: String
    let schedule: PolicyChoice
    let streak: PolicyChoice
    let operations: [Operation]

    static let choices: [(PolicyChoice, PolicyChoice, Double, String)] = {
        func choice(_ name: String, _ json: String = "{}") -> PolicyChoice {
            do { return try PolicyChoice(name: name, parametersJSON: json) } catch { preconditionFailure("\(error)") }
        }
        return [
            (.daily, .strict, 1, ""), (choice("weekly", #"{"days":["mon","wed","fri"]}"#), choice("grace"), 8, "cups"),
            (choice("times-per-week", #"{"times":3}"#), .strict, 1, ""), (choice("every-n-days", #"{"every":2}"#), choice("freeze"), 30, "min"),
            (choice("rrule", #"{"rule":"FREQ=WEEKLY;BYDAY=TU,TH"}"#), .strict, 2.5, "km"), (.daily, choice("grace"), 8, "cups"),
            (choice("weekdays"), choice("freeze"), 1, ""), (choice("times-in-days", #"{"times":2,"days":5}"#), .strict, 3, "p"),
        ]
    }()

    init(index: Int, count: Int) {
        var generator = SeededGenerator(seed: UInt64(1_000 + index))
        let (schedule, streak, goal, unit) = Self.choices[index % Self.choices.count]
        id = UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", index))!
        name = "habit \(index)"
        self.goal = goal
        self.unit = unit
        self.schedule = schedule
        self.streak = streak
        operations = (0..<count).map { _ in
            let day = today.adding(days: -Int.random(in: 0..<30, using: &generator))
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<5: return .record(day, unit.isEmpty ? 1 : [0.5, 1, 2.5, 4].randomElement(using: &generator)!)
            case 5, 6: return .undo(day)
            case 7: return .skip(day)
            case 8: return .readSummaries
            default: return .readReport
            }
        }
    }

    /// Runs one write against `context`, answering "ok" or the error's text; reads answer "read".
    static func apply(_ operation: Operation, habit: HabitReference, context: HabitContext) -> String {
        do {
            switch operation {
            case .record(let day, let amount): _ = try RecordCompletion(context: context)(habit, amount: amount, on: day)
            case .undo(let day): _ = try CancelCompletion(context: context)(habit, on: day)
            case .skip(let day): _ = try SkipDays(context: context)(habit, days: LocalDayRange(day, day))
            case .readSummaries: _ = try SummarizeHabits(context: context)(); return "read"
            case .readReport: _ = try BuildWeeklyReport(context: context)(); return "read"
            }
            return "ok"
        } catch {
            return "\(error)"
        }
    }
}

/// What the figures come to: each habit's statistics and today's entry, and the week's report.
func figures(_ context: HabitContext) throws -> [String] {
    let summaries = try SummarizeHabits(context: context)().map { try $0.get() }
    let report = WeeklyReportFormatter(language: .english).format(try BuildWeeklyReport(context: context)())
    return summaries.map { "\($0.habit.name): \($0.statistics) \(String(describing: $0.today))" } + [report]
}

func makeLibrary() throws -> PolicyLibrary { try PolicyLibrary(searchPath: []) }

func createHabits(_ scripts: [Script], context: HabitContext) throws {
    for script in scripts {
        try CreateHabit(context: context)(name: script.name, startedOn: day("2026-09-01"), goal: script.goal, unit: script.unit,
                                          schedule: script.schedule, streak: script.streak, id: script.id)
    }
}

@Suite("engine: many tasks at once")
struct HabitEngineTests {
    @Test("8 tasks × 500 mixed operations on one engine end where the same operations run one after another end")
    func concurrentEqualsSequential() async throws {
        let scripts = (0..<8).map { Script(index: $0, count: 500) }
        let folder = try TemporaryFolder()

        // One after another, in one context.
        let sequentialPath = folder.path("sequential.sqlite")
        let sequential = HabitContext(store: try SQLiteHabitStore(path: sequentialPath), clock: FixedClock(now), boundary: boundary,
                                      policies: try makeLibrary())
        try createHabits(scripts, context: sequential)
        let expectedOutcomes = scripts.map { script in script.operations.map { Script.apply($0, habit: .id(script.id), context: sequential) } }
        let expected = try figures(sequential)

        // All at once, through the engine (the file is created, and migrated, before the workers open it).
        let path = folder.path("engine.sqlite")
        let setup = HabitContext(store: try SQLiteHabitStore(path: path), clock: FixedClock(now), boundary: boundary, policies: try makeLibrary())
        try createHabits(scripts, context: setup)
        let engine = HabitEngine(workers: 4, clock: FixedClock(now), boundary: boundary,
                                 makeStore: { try SQLiteHabitStore(path: path) }, makePolicies: { try makeLibrary() })
        let outcomes = try await withThrowingTaskGroup(of: (Int, [String]).self) { group in
            for (index, script) in scripts.enumerated() {
                group.addTask {
                    var answers: [String] = []
                    for operation in script.operations {
                        answers.append(try await engine.perform { Script.apply(operation, habit: .id(script.id), context: $0) })
                    }
                    return (index, answers)
                }
            }
            var all = [[String]](repeating: [], count: scripts.count)
            for try await (index, answers) in group { all[index] = answers }
            return all
        }
        #expect(outcomes == expectedOutcomes)
        #expect(outcomes.joined().contains("ok") && outcomes.joined().contains { $0.contains("nothing recorded") })
        let actual = try await engine.perform { try figures($0) }
        #expect(actual == expected)
        engine.stop()
        await #expect(throws: EngineError.stopped) { try await engine.record(.id(scripts[0].id)) }
    }

    /// An engine on a new file holding `walk` from 2026-10-05, recorded on each of `days` (offsets).
    func walkEngine(owner: String = "default", recorded days: [Int] = []) throws -> (HabitEngine, TemporaryFolder) {
        let folder = try TemporaryFolder()
        let path = folder.path("engine.sqlite")
        let setup = HabitContext(store: try SQLiteHabitStore(path: path, owner: owner), clock: FixedClock(now), boundary: boundary, policies: try makeLibrary())
        try CreateHabit(context: setup)(name: "walk", startedOn: day("2026-10-05"))
        for offset in days { try RecordCompletion(context: setup)(habitName: "walk", on: day("2026-10-05").adding(days: offset)) }
        let engine = HabitEngine(workers: 2, owner: owner, clock: FixedClock(now), boundary: boundary,
                                 makeStore: { try SQLiteHabitStore(path: path) }, makePolicies: { try makeLibrary() })
        return (engine, folder)
    }

    @Test("the convenience calls go through the same use cases")
    func conveniences() async throws {
        let (engine, folder) = try walkEngine()
        defer { engine.stop(); withExtendedLifetime(folder) {} }
        let walk = HabitReference.name("walk")
        #expect(try await engine.record(walk, on: day("2026-10-10")).completedOn == day("2026-10-10"))
        #expect(try await engine.record(walk).completedOn == today)
        #expect(try await engine.undo(walk).completedOn == today)
        #expect(try await engine.skip(walk, days: LocalDayRange(day("2026-10-09"), day("2026-10-09"))).count == 1)
        let summary = try #require(try await engine.summaries(walk).first?.get())
        #expect(summary.statistics.streak == HabitStreak(current: 1, longest: 1))
        #expect(try await engine.weeklyReport().lines.first?.metDays == 1)
        #expect(try await engine.habits().map(\.name) == ["walk"])
        await #expect(throws: UseCaseError.habitNotFound(name: "run")) { try await engine.record(.name("run")) }
    }

    @Test("a worker that cannot open its store answers every request with that error")
    func brokenStore() async throws {
        struct Unavailable: Error, Equatable {}
        let engine = HabitEngine(workers: 1, clock: FixedClock(now), boundary: boundary,
                                 makeStore: { throw Unavailable() }, makePolicies: { try makeLibrary() })
        defer { engine.stop() }
        await #expect(throws: Unavailable.self) { try await engine.habits() }
        await #expect(throws: Unavailable.self) { try await engine.habits() }
    }

    @Test("the policy calls install, list, revise, simulate and roll back for one owner, and reach nothing of another's")
    func policies() async throws {
        let (engine, folder) = try walkEngine(owner: "ana", recorded: [0, 1, 3, 4, 5])
        defer { engine.stop(); withExtendedLifetime(folder) {} }
        let walk = HabitReference.name("walk")
        let counting = "return { streak = function(s, d, o) if o.met then s.current = s.current + 1 s.longest = math.max(s.longest, s.current) end return s end,\n examples = { { history = \"YNY\", current = 2, longest = 2 } } }"
        let script = try await engine.installPolicy(owner: "ana", name: "counting", source: counting)
        #expect(script.sha256 == SHA256(of: counting).description)
        #expect(try await engine.policyScripts(owner: "ana").contains(script))
        await #expect(throws: PolicyRefusal.self) {
            try await engine.installPolicy(owner: "ana", name: "wrong", source: counting.replacingOccurrences(of: "current = 2", with: "current = 5"))
        }
        #expect(try await engine.policyScripts(owner: "ana").allSatisfy { $0.name != "wrong" })

        let simulation = try await engine.simulate(owner: "ana", habit: walk, policy: "grace", role: .streak)
        #expect(simulation.current.statistics.streak == HabitStreak(current: 3, longest: 3))
        #expect(simulation.proposed.statistics.streak == HabitStreak(current: 5, longest: 5))
        let edited = try await engine.edit(owner: "ana", habit: walk, changes: HabitChanges(streak: PolicyChoice(name: "grace"), rulesFrom: .retroactive))
        #expect(edited.latest.number == 2 && edited.streak.sha256 != nil)
        #expect(try await engine.summaries(walk).first?.get().statistics == simulation.proposed.statistics)
        #expect(try await engine.revisions(owner: "ana", habit: walk).map(\.streak.name) == ["strict", "grace"])
        let rolledBack = try await engine.rollBack(owner: "ana", habit: walk)
        #expect(rolledBack.latest.hasSameRules(as: rolledBack.revisions[0]))
        #expect(try await engine.summaries(walk).first?.get().statistics == simulation.current.statistics)

        await #expect(throws: UseCaseError.habitNotFound(name: "walk")) { try await engine.revisions(owner: "bob", habit: walk) }
        #expect(try await engine.policyScripts(owner: "bob").isEmpty)
        #expect(try await engine.perform(owner: "bob") { try ListHabits(context: $0)(includeArchived: true) }.isEmpty)
        let bobs = try await engine.installPolicy(owner: "bob", name: "counting", source: counting)
        #expect(bobs.sha256 == script.sha256)
        #expect(try await engine.policyScripts(owner: "bob").map(\.name) == ["counting"])
        #expect(try await engine.policyScripts(owner: "ana").count > 1)
    }
}
