import Foundation
import Testing
import StackDay
import StackDayLua
import StackDaySQLite
import StackDayServer
import StackDayTestSupport

@Suite("serve --no-cache: every read computed, nothing kept")
struct NoCacheTests {
    @Test("a server without its caches neither reads nor keeps cached evaluations; one with them keeps them")
    func evaluationCache() throws {
        for caches in [false, true] {
            let folder = try TemporaryFolder()
            let path = folder.path("store.sqlite")
            let clock = FixedClock(Date(timeIntervalSince1970: 1_791_900_000))
            let api = StackDayAPI(clock: clock, makeStore: { try SQLiteHabitStore(path: path) }, makePolicies: { try PolicyLibrary(searchPath: []) },
                                  cachesAnswers: caches, log: { _ in })
            let owner = try SQLiteHabitStore(path: path, owner: "ana")
            let context = HabitContext(store: owner, clock: clock, boundary: DayBoundary(timeZone: TimeZone(secondsFromGMT: 0) ?? .gmt))
            let token = try ManageUsers(context: context).add("ana", timeZone: "+00:00").token.text
            let created = api.handle(HTTPRequest(method: "POST", path: "/v1/habits", authorization: "Bearer \(token)", contentType: "application/json",
                                                 body: Array(#"{"name":"read","start":"2026-09-01"}"#.utf8)))
            #expect(created.status == 201)
            #expect(api.handle(HTTPRequest(method: "GET", path: "/v1/today", authorization: "Bearer \(token)")).status == 200)
            let kept = try owner.read { tx in try tx.habits.all().compactMap { try tx.evaluations?.evaluation(habitID: $0.id) } }
            #expect(kept.count == (caches ? 1 : 0), "caches \(caches): \(kept.count) kept")
        }
    }
}
