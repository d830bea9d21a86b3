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
