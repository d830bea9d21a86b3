import Foundation
import Testing
import StackDay
import StackDayLua
import StackDayPostgres
import StackDaySQLite
import StackDayTestSupport

/// The hybrid clock reads one clock: a store given one stamps its writes by it, on either store.
@Suite("sync clock")
struct SyncClockTests {
    @Test("a store given a clock stamps each write by it, not by the machine's", arguments: ["sqlite", "postgres"])
    func stampsByTheStoreClock(kind: String) throws {
        let folder = try TemporaryFolder()
        let clock = ManualClock(evening)
        let store: any HabitStore = kind == "sqlite"
            ? try SQLiteHabitStore(path: folder.path("clock.sqlite"), clock: clock)
            : try PostgresHabitStore(url: try syncPostgres.get().url, owner: "clock-\(UUID().uuidString)", clock: clock)
        let app = context(store, try PolicyLibrary(searchPath: []), clock: clock)
        _ = try store.write { tx in try tx.sync?.start { "device" } }
        func stampedAt() throws -> [Date] {
            try store.read { tx in
                try tx.sync?.changes(after: 0, device: "elsewhere", scope: .others, limit: 100).changes
                    .map { Date(timeIntervalSince1970: Double($0.stamp.hlc >> 16) / 1000) } ?? []
            }
        }
        try CreateHabit(context: app)(name: "read", startedOn: today)
        let made = try stampedAt()
        #expect(!made.isEmpty && made.allSatisfy { $0 == evening }, "\(made)")
        clock.advance(by: 90)
        _ = try RenameHabit(context: app)(habitName: "read", to: "book")
        let renamed = try stampedAt()
        #expect(renamed.contains(evening.addingTimeInterval(90)), "\(renamed)")
        if kind == "sqlite" {
            // The clock's row lives inside each write transaction only.
            #expect(SQLiteShell.run(folder.path("clock.sqlite"), "SELECT count(*) FROM sync_clock") == ["0"])
        }
    }
}
