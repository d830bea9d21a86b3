import Foundation
import Testing
import StackDay
import StackDaySQLite
import StackDayTestSupport

/// Records and skips inserted many at once enter the change log after them, in two statements
/// (`SyncTriggers.batchStatements`). These tests hold that log to the one the row triggers write
/// for the same rows inserted one statement at a time in a copy of the store: the same positions,
/// times, devices and numbers of the store's own writes, and the same counters after.
@Suite("records and skips logged a batch at a time, as their row triggers log them")
struct BatchLogTests {
    /// A store that syncs, with one habit and a few records logged by their triggers, its clock
    /// at `start`; and a copy of it.
    struct Pair {
        let folder: TemporaryFolder
        let store: SQLiteHabitStore
        let clock: ManualClock
        let habit: String
        var path: String { folder.path("batched.sqlite") }
        var copy: String { folder.path("by-row.sqlite") }

        init() throws {
            folder = try TemporaryFolder()
            clock = ManualClock(Date(timeIntervalSince1970: 1_790_000_000))
            store = try SQLiteHabitStore(path: folder.path("batched.sqlite"), clock: clock)
            let context = HabitContext(store: store, clock: clock, boundary: DayBoundary(timeZone: .gmt))
            try CreateHabit(context: context)(name: "water", startedOn: try LocalDay(iso: "2026-01-01"))
            _ = try store.write { tx in try tx.sync?.start { "device-here" } }
            for day in 1...3 {
                _ = try RecordCompletion(context: context)(habitName: "water", amount: 1, on: try LocalDay(iso: "2026-02-0\(day)"))
            }
            habit = try #require(try store.read { tx in try tx.habits.habit(named: "water") }).id.uuidString
            copyNow()
        }

        func copyNow() {
            try? FileManager.default.removeItem(atPath: copy)
            #expect(SQLiteShell.run(path, "VACUUM INTO '\(copy)'") == [])
        }

        /// The change log and the owner's counters, as text.
        static func log(_ path: String) -> [String] {
            SQLiteShell.run(path, "SELECT kind, key, seq, hlc, device, deleted, coalesce(own, '-') FROM sync_entities ORDER BY seq")
                + SQLiteShell.run(path, "SELECT seq, hlc, own FROM sync_owners")
        }

        /// `statement` run on the copy with the store's clock in `sync_clock`, and `writer` (a
        /// device and time) in `sync_writer` when given, as the store has them while it writes.
        func byRow(_ statement: String, writer: SyncStamp? = nil) {
            let hlc = SyncStamp.time(at: clock.now)
            #expect(SQLiteShell.run(copy, "INSERT INTO sync_clock (hlc) VALUES (\(hlc))") == [])
            if let writer { #expect(SQLiteShell.run(copy, "INSERT INTO sync_writer (device, hlc) VALUES ('\(writer.device)', \(writer.hlc))") == []) }
            #expect(SQLiteShell.run(copy, statement) == [])
            #expect(SQLiteShell.run(copy, "DELETE FROM sync_writer") == [])
            #expect(SQLiteShell.run(copy, "DELETE FROM sync_clock") == [])
        }
    }

    static func ids(_ count: Int) -> [String] { (0..<count).map { _ in UUID().uuidString } }

    @Test("an import's records: the store's own writes, its clock behind the log's and ahead of it", arguments: [-3600.0, 3600.0])
    func importedRecords(clockMoves seconds: Double) throws {
        let pair = try Pair()
        pair.clock.advance(by: seconds)
        let ids = (0..<25).map { _ in UUID() }
        let habit = try #require(UUID(uuidString: pair.habit))
        let records = try ids.enumerated().map { index, id in
            try Completion(id: id, habitID: habit, completedOn: try LocalDay(iso: "2026-03-01").adding(days: index),
                           recordedAt: Date(timeIntervalSince1970: 1_790_000_000), amount: 1)
        }
        let inserted = try pair.store.write { tx in try tx.completions.insertIfAbsent(records[...]) }
        #expect(inserted == records.map { _ in true })
        pair.byRow("INSERT INTO completions (owner, id, habit_id, completed_on, recorded_at, amount_thousandths, note) VALUES "
            + records.map { "('default', '\($0.id.uuidString)', '\(pair.habit)', '\($0.completedOn.iso)', 1790000000.0, 1000, NULL)" }.joined(separator: ", "))
        let batched = Pair.log(pair.path)
        #expect(ids.allSatisfy { id in batched.contains { $0.hasPrefix("completion|\(id.uuidString)|") } })
        #expect(batched == Pair.log(pair.copy))
    }

    @Test("a push's records and skips: another device's writes, its time ahead of the log's and behind it", arguments: [1.0, -1.0])
    func pushedRecordsAndSkips(writerAhead sign: Double) throws {
        let pair = try Pair()
        let stamp = SyncStamp(hlc: SyncStamp.time(at: pair.clock.now.addingTimeInterval(sign * 86_400)), device: "device-there")
        let (april, june) = (try LocalDay(iso: "2026-04-01"), try LocalDay(iso: "2026-06-01"))
        let records = Self.ids(30).enumerated().map { index, id in
            SyncChange(.record(SyncRecord(id: id, habit: pair.habit, day: april.adding(days: index), recordedAt: 1_790_000_000, amountThousandths: 2000)), stamp: stamp)
        }
        let skips = Self.ids(12).enumerated().map { index, id in
            SyncChange(.skip(SyncSkip(id: id, habit: pair.habit, day: june.adding(days: index), recordedAt: 1_790_000_000)), stamp: stamp)
        }
        let outcomes = try pair.store.write { tx in try tx.sync?.apply(records + skips, as: .server) }
        #expect(outcomes == (records + skips).map { _ in .applied })
        pair.byRow("INSERT INTO completions (owner, id, habit_id, completed_on, recorded_at, amount_thousandths, note) VALUES "
            + records.compactMap { change -> String? in
                guard case .record(let record)? = change.entity else { return nil }
                return "('default', '\(record.id)', '\(pair.habit)', '\(record.day.iso)', 1790000000.0, 2000, NULL)"
            }.joined(separator: ", "), writer: stamp)
        pair.byRow("INSERT INTO skips (owner, id, habit_id, day, recorded_at) VALUES "
            + skips.compactMap { change -> String? in
                guard case .skip(let skip)? = change.entity else { return nil }
                return "('default', '\(skip.id)', '\(pair.habit)', '\(skip.day.iso)', 1790000000.0)"
            }.joined(separator: ", "), writer: stamp)
        let batched = Pair.log(pair.path)
        #expect((records + skips).allSatisfy { change in batched.contains { $0.hasPrefix("\(change.kind.rawValue)|\(change.key)|") } })
        #expect(batched == Pair.log(pair.copy))
        // The triggers are on again: a record written after is logged by its own.
        #expect(SQLiteShell.run(pair.path, "SELECT count(*) FROM sync_deferred") == ["0"])
        let before = SQLiteShell.run(pair.path, "SELECT seq FROM sync_owners")
        _ = SQLiteShell.run(pair.path, "INSERT INTO completions (owner, id, habit_id, completed_on, recorded_at, amount_thousandths, note) VALUES ('default', '\(UUID().uuidString)', '\(pair.habit)', '2026-09-01', 0, 1000, NULL)")
        #expect(SQLiteShell.run(pair.path, "SELECT seq FROM sync_owners") == [String((Int(before.first ?? "") ?? 0) + 1)])
    }
}
