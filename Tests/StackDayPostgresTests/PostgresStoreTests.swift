import Foundation
import Testing
import StackDay
import StackDayContract
import StackDayPostgres
import StackDayTestSupport

/// One server for the suite's tests, started on first use and stopped when the process ends.
let sharedServer = Result { try PostgresServer() }

@Suite("Repository contract: PostgreSQL")
struct PostgresContractTests {
    @Test(arguments: RepositoryContract.checks)
    func contract(check: ContractCheck) throws {
        let server = try sharedServer.get()
        // Each check runs as a user of its own: the isolation the store promises.
        let store = try PostgresHabitStore(url: server.url, owner: "contract-\(UUID().uuidString)")
        try check.run(on: store)
    }
}

@Suite("PostgreSQL store")
struct PostgresStoreTests {
    @Test("an import streamed in the COPY protocol keeps an owner with a backslash and a tab exactly; a re-run inserts nothing twice")
    func copiedOwner() throws {
        let server = try sharedServer.get()
        let owner = "back\\slash\ttab-\(UUID().uuidString.prefix(8))"
        let store = try PostgresHabitStore(url: server.url, owner: owner)
        let context = HabitContext(store: store, clock: FixedClock(Date(timeIntervalSince1970: 1_790_000_000)),
                                   boundary: DayBoundary(timeZone: TimeZone(secondsFromGMT: 0)!))
        let habit = try CreateHabit(context: context)(name: "water", startedOn: try LocalDay(iso: "2020-01-01"))
        let completions = try (0..<12_000).map { index in
            try Completion(habitID: habit.id, completedOn: try LocalDay(iso: "2020-01-01").adding(days: index % 2_000),
                           recordedAt: Date(timeIntervalSince1970: 1_600_000_000 + Double(index)), amount: 1)
        }
        let first = try ImportCompletions(context: context, batchSize: 5_000)(completions[0..<7_000])
        #expect(first.inserted == 7_000 && first.alreadyPresent == 0)
        let second = try ImportCompletions(context: context, batchSize: 5_000)(completions)
        #expect(second.inserted == 5_000 && second.alreadyPresent == 7_000)
        // The store reads only rows whose user_id is exactly its owner: a mangled owner would hide them.
        #expect(try store.read { try $0.completions.completions(habitID: habit.id).count } == 12_000)
        let habitID = habit.id.uuidString.lowercased()
        #expect(try server.psql("SELECT count(DISTINCT user_id), count(*) FROM completions WHERE habit_id = '\(habitID)'") == "1|12000\n")
    }
}
