import Foundation
import Testing
import StackDay
import StackDaySQLite
import StackDayTestSupport

@Suite("write-ahead log checkpoints off the write path")
struct CheckpointTests {
    @Test("with checkpoints in the background, commits leave the log alone and a thread copies it back into the file")
    func background() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("store.sqlite")
        let store = try SQLiteHabitStore(path: path)
        try store.checkpointInBackground()
        let app = HabitContext(store: store, clock: FixedClock(Date(timeIntervalSince1970: 1_790_000_000)), boundary: DayBoundary(timeZone: .gmt))
        func size(_ file: String) -> Int { (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0 }
        // The migrations' log copied now (by this test, not the thread), then a write past SQLite's
        // automatic threshold: what the file gains after is the thread's work.
        _ = SQLiteShell.run(path, "PRAGMA wal_checkpoint(PASSIVE)")
        let before = size(path)
        try CreateHabit(context: app)(name: "water", startedOn: try LocalDay(iso: "2020-01-01"))
        let habit = try #require(try store.read { tx in try tx.habits.habit(named: "water") })
        let first = try LocalDay(iso: "2020-01-01")
        let records = try (0..<20_000).map { index in
            try Completion(id: UUID(), habitID: habit.id, completedOn: first.adding(days: index % 2000),
                       recordedAt: Date(timeIntervalSince1970: 1_790_000_000))
        }
        _ = try store.write { tx in try tx.completions.insertIfAbsent(records[...]) }
        var grown = size(path)
        let deadline = Date().addingTimeInterval(5)
        while grown <= before, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            grown = size(path)
        }
        #expect(grown > before, "the log was copied back: \(before) → \(grown) bytes")
        #expect(SQLiteShell.run(path, "PRAGMA integrity_check") == ["ok"])
    }
}
