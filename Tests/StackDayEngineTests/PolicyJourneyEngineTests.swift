import Foundation
import Testing
import StackDay
import StackDayEngine
import StackDayLua
import StackDaySQLite
import StackDayTestSupport

/// The policy journey in an app that embeds the engine, as README's "Embedding" shows it: a
/// script installed for one owner is a name that owner's edits, simulations and rollbacks use,
/// and no other owner's.
@Suite("policy journey in the embedded engine")
struct PolicyJourneyEngineTests {
    @Test("installPolicy, then simulate, edit from a day, roll back: the figures return exactly; another owner cannot name it")
    func journey() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("app.sqlite")
        let clock = FixedClock(Date(timeIntervalSince1970: PolicyJourney.nowSeconds))
        let seoul = DayBoundary(timeZone: TimeZone(secondsFromGMT: 9 * 3600)!)
        let setup = HabitContext(store: try SQLiteHabitStore(path: path, owner: "ana"), clock: clock, boundary: seoul, policies: try PolicyLibrary(searchPath: []))
        try CreateHabit(context: setup)(name: "read", startedOn: try LocalDay(iso: PolicyJourney.start))
        for day in PolicyJourney.metDays { try RecordCompletion(context: setup)(habitName: "read", on: try LocalDay(iso: day)) }
        let engine = HabitEngine(workers: 2, owner: "ana", clock: clock, boundary: seoul,
                                 makeStore: { try SQLiteHabitStore(path: path) }, makePolicies: { try PolicyLibrary(searchPath: []) })
        defer { engine.stop() }
        let read = HabitReference.name("read")
        let before = try await engine.summaries(read).first?.get().statistics

        _ = try await engine.installPolicy(owner: "ana", name: "two", source: PolicyJourney.twoMisses)
        let from = try LocalDay(iso: PolicyJourney.from)
        let simulation = try await engine.simulate(owner: "ana", habit: read, policy: "two", role: .streak, from: .day(from))
        #expect(simulation.current.statistics == before)
        #expect(simulation.proposed.statistics != before)

        let edited = try await engine.edit(owner: "ana", habit: read, changes: HabitChanges(streak: PolicyChoice(name: "two"), rulesFrom: .day(from)))
        #expect(edited.latest.streak.name == "two" && edited.latest.streak.sha256 == SHA256(of: PolicyJourney.twoMisses).description)
        #expect(try await engine.summaries(read).first?.get().statistics == simulation.proposed.statistics)

        let rolled = try await engine.rollBack(owner: "ana", habit: read)
        #expect(rolled.revisions.count == 3 && rolled.latest.takesBack == 2 && rolled.takenBack(2) == 3)
        #expect(try await engine.summaries(read).first?.get().statistics == before)

        await #expect(throws: UnknownPolicy.self) {
            try await engine.perform(owner: "bob") { context in
                try CreateHabit(context: context)(name: "walk", streak: PolicyChoice(name: "two"))
            }
        }
    }
}
