import Foundation
import Testing
import StackDay
import StackDayEngine
@testable import StackDayServer

@Suite("server internals: kept answers bounded in bytes, failed stores reopened")
struct ServerMemoryTests {
    static func answer(bytes: Int) -> HTTPResponse {
        HTTPResponse(status: 200, contentType: "application/json", body: [UInt8](repeating: 0x20, count: bytes))
    }

    @Test("an answer over the largest size is not kept; past the byte limit everything kept is let go")
    func answerBytes() {
        let cache = AnswerCache(count: 1_000, limit: 100_000, largest: 40_000)
        #expect(cache.keep(Self.answer(bytes: 50_000), for: "huge") == false)
        #expect(cache.answer(for: "huge") == nil && cache.heldBytes == 0)
        for index in 0..<3 { cache.keep(Self.answer(bytes: 30_000), for: "a\(index)") }
        #expect(cache.heldBytes > 90_000 && cache.heldBytes <= 100_000)
        #expect(cache.answer(for: "a0") != nil)
        // A fourth would pass 100,000 bytes: the three are let go, the fourth is kept.
        #expect(cache.keep(Self.answer(bytes: 30_000), for: "a3") == true)
        #expect(cache.answer(for: "a0") == nil && cache.answer(for: "a3") != nil)
        #expect(cache.heldBytes <= 40_000)
        // Keeping a key again counts its bytes once.
        cache.keep(Self.answer(bytes: 30_000), for: "a3")
        #expect(cache.heldBytes <= 40_000)
    }

    struct Down: Error {}

    /// A store that cannot be opened until `up` is set.
    final class Flaky: @unchecked Sendable {
        let lock = NSLock()
        var up = false
        var opened = 0
        func open() throws -> any HabitStore {
            try lock.withLock {
                opened += 1
                guard up else { throw Down() }
                return InMemoryHabitStore()
            }
        }
    }

    @Test("a context whose store failed is dropped and the store is opened again once it is back")
    func storeRecovers() throws {
        let flaky = Flaky()
        let pool = ContextPool { OwnerContexts(makeStore: { try flaky.open() }, makePolicies: { StandardPolicyResolver() }) }
        for _ in 0..<3 {
            #expect(throws: Down.self) { try pool.with { try $0.baseStore() } }
        }
        flaky.lock.withLock { flaky.up = true }
        let store = try pool.with { try $0.baseStore() }
        #expect(store.owner == "default")
        #expect(flaky.lock.withLock { flaky.opened } == 4)
        // A use case's refusal is not a store failure: the context is kept and not reopened.
        #expect(throws: UseCaseError.self) { try pool.with { _ in throw UseCaseError.habitNotFound(name: "x") } }
        _ = try pool.with { try $0.baseStore() }
        #expect(flaky.lock.withLock { flaky.opened } == 4)
    }
}
