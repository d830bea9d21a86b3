import Foundation
import Testing
import StackDay
import StackDayContract
import StackDaySQLite
import StackDayTestSupport

@Suite("Repository contract: SQLite")
struct SQLiteContractTests {
    @Test("in memory", arguments: RepositoryContract.checks)
    func inMemory(check: ContractCheck) throws {
        try check.run(on: try SQLiteHabitStore.inMemory())
    }

    @Test("on a file", arguments: RepositoryContract.checks)
    func onFile(check: ContractCheck) throws {
        let folder = try TemporaryFolder()
        try check.run(on: try SQLiteHabitStore(path: folder.path("contract.sqlite")))
    }
}
