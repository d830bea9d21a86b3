import Testing
import StackDay
import StackDayContract

@Suite("Repository contract: in memory")
struct InMemoryRepositoryContractTests {
    @Test(arguments: RepositoryContract.checks)
    func contract(check: ContractCheck) throws {
        try check.run(on: InMemoryHabitStore())
    }
}
