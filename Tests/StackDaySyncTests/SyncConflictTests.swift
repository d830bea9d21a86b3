import Foundation
import Testing
import StackDay
import StackDayLua
import StackDaySQLite
import StackDaySync
import StackDayTestSupport

/// The conflicts docs/sync.md names, each resolved the same way on every replica.
@Suite("sync conflicts")
struct SyncConflictTests {
    @Test("reminder times go with their revision to every replica, and a change of them is a revision like any rule")
    func reminders() async throws {
        let world = try World()
        let morning = try ReminderTime.list(["08:00", "21:30"])
        try CreateHabit(context: world.a.app)(name: "stretch", startedOn: today.adding(days: -3), reminders: morning)
        try await world.sync(world.a)
        try await world.sync(world.b)
        let pulled = try FindHabit(context: world.b.app)(named: "stretch")
        #expect(pulled.latest.reminders == morning)
        var changes = HabitChanges(rulesFrom: .day(today))
        changes.reminders = []
        try EditHabit(context: world.b.app)(habitName: "stretch", changes: changes)
        try await world.sync(world.b)
        try await world.sync(world.a)
        let revised = try FindHabit(context: world.a.app)(named: "stretch")
        #expect(revised.revisions.map(\.reminders) == [morning, []])
        #expect(try Snapshot(world.a.app) == Snapshot(world.server.context))
    }

    @Test("two renames: the later one wins everywhere")
    func renames() async throws {
        let world = try World()
        try await world.shared()
        _ = try RenameHabit(context: world.a.app)(habitName: "read", to: "book")
        world.later()
        _ = try RenameHabit(context: world.b.app)(habitName: "read", to: "novel")
        try await world.exchange()
        let snapshots = try world.snapshots()
        #expect(snapshots.allSatisfy { $0 == snapshots[0] })
        #expect(snapshots[0].habits.map(\.name) == ["novel"])
    }

    @Test("what a sync decided beyond copying is said: a rename that lost is overridden, a record of a habit deleted elsewhere is refused")
    func said() async throws {
        let world = try World()
        try await world.shared()
        _ = try RenameHabit(context: world.a.app)(habitName: "read", to: "book")
        world.later()
        _ = try RenameHabit(context: world.b.app)(habitName: "read", to: "novel")
        let won = try await world.sync(world.b)
        #expect(won.overridden.isEmpty && won.refused.isEmpty)
        let lost = try await world.sync(world.a)
        #expect(lost.overridden == [SyncOverridden(habit: "novel", field: "name", mine: "book", kept: "novel")], "\(lost)")
        #expect(lost.json.objectValue?["overridden"] == .array([.object(["habit": .string("novel"), "field": .string("name"),
                                                                          "mine": .string("book"), "kept": .string("novel")])]))
        #expect(lost.renamed.isEmpty, "a rename made on another device is not the server's")
        // Said once: the next syncs decide nothing.
        #expect(try await world.sync(world.a) == SyncReport())
        #expect(try await world.sync(world.b) == SyncReport(pulled: 0))

        _ = try DeleteHabit(context: world.a.app)(habitName: "novel")
        _ = try RecordCompletion(context: world.b.app)(habitName: "novel", on: today)
        try await world.sync(world.a)
        let refused = try await world.sync(world.b)
        #expect(refused.refused == [SyncRefused(kind: "completion", habit: "novel", day: today.iso, code: SyncRefusal.habitDeleted)], "\(refused)")
        #expect(refused.json.objectValue?["refused"]?.arrayValue?.count == 1)
        let snapshots = try world.snapshots()
        #expect(snapshots.allSatisfy { $0 == snapshots[0] } && snapshots[0].completions.isEmpty)
    }

    @Test("the server keeps what each sync decided beyond copying, for the web app's settings page: an override, a refusal, a settled name")
    func serverKeepsDecisions() async throws {
        let world = try World()
        let store = world.server.context.store
        func decided() throws -> SyncDecided? { try store.read { tx in try tx.sync?.lastDecided() } }
        try await world.shared()
        #expect(try decided() == nil)
        // a's rename is the earlier, and reaches the server after b's.
        _ = try RenameHabit(context: world.a.app)(habitName: "read", to: "book")
        world.later()
        _ = try RenameHabit(context: world.b.app)(habitName: "read", to: "novel")
        try await world.sync(world.b)
        #expect(try decided() == nil, "b's rename copied in: nothing to say")
        try await world.sync(world.a)
        let overridden = try #require(try decided())
        #expect(overridden.device == (try world.a.app.store.read { tx in try tx.sync?.start { "" } }))
        #expect(overridden.overridden == [SyncDecided.Overridden(habit: "novel", field: "name", mine: "book", kept: "novel")], "\(overridden)")
        try await world.sync(world.b)

        _ = try DeleteHabit(context: world.b.app)(habitName: "novel")
        try await world.sync(world.b)
        _ = try RecordCompletion(context: world.a.app)(habitName: "novel", on: today)
        try await world.sync(world.a)
        let refused = try #require(try decided())
        #expect(refused.refused == [SyncDecided.Refused(kind: "completion", habit: "", day: today.iso, code: SyncRefusal.habitDeleted)] && refused.overridden.isEmpty)

        try CreateHabit(context: world.a.app)(name: "walk", startedOn: today)
        world.later()
        try CreateHabit(context: world.b.app)(name: "Walk", startedOn: today)
        try await world.syncEach(world.a, world.b)
        let renamed = try #require(try decided())
        #expect(renamed.renamed == [SyncDecided.Renamed(from: "Walk", to: "Walk (2)")] && renamed.refused.isEmpty, "\(renamed)")
    }

    @Test("a rename on one device and an archive on another: both hold everywhere; the later of two renames still wins")
    func fieldsMergeOneByOne() async throws {
        let world = try World()
        try await world.shared(startedOn: today.adding(days: -10))
        _ = try RenameHabit(context: world.a.app)(habitName: "read", to: "books")
        _ = try ArchiveHabit(context: world.b.app)(habitName: "read", on: today.adding(days: -1))
        _ = try EditHabit(context: world.b.app)(habitName: "read", changes: HabitChanges(unit: "pages", rulesFrom: .today))
        try await world.exchange()
        try await world.sync(world.a)
        let snapshots = try world.snapshots()
        #expect(snapshots.allSatisfy { $0 == snapshots[0] }, "\(snapshots)")
        let habit = try #require(snapshots[0].habits.first)
        #expect(habit.name == "books")
        #expect(habit.archivedOn == today.adding(days: -1))
        #expect(habit.unit == "pages")
        // Both devices rename now: the later rename wins, the archive stays.
        _ = try RenameHabit(context: world.b.app)(habitName: "books", to: "novels")
        world.later()
        _ = try RenameHabit(context: world.a.app)(habitName: "books", to: "essays")
        try await world.exchange()
        try await world.sync(world.a)
        let after = try world.snapshots()
        #expect(after.allSatisfy { $0 == after[0] })
        #expect(after[0].habits.map(\.name) == ["essays"])
        #expect(after[0].habits.first?.archivedOn == today.adding(days: -1))
        #expect(try await world.sync(world.a) == SyncReport())
        #expect(try await world.sync(world.b) == SyncReport())
    }

    @Test("a move on one device and a colour and step on another: both hold everywhere, and every replica lists the same order")
    func orderAndLookMerge() async throws {
        let world = try World()
        try await world.shared()
        try CreateHabit(context: world.a.app)(name: "walk", startedOn: today.adding(days: -5))
        try await world.syncEach(world.a, world.b)
        #expect(try ListHabits(context: world.b.app)(includeArchived: true).map(\.name) == ["read", "walk"])
        try MoveHabit(context: world.a.app)(.name("walk"), to: .before(.name("read")))
        var look = HabitChanges()
        look.colorTag = .some(.teal)
        look.step = .some(2.5)
        try EditHabit(context: world.b.app)(habitName: "read", changes: look)
        try await world.exchange()
        try await world.sync(world.a)
        let snapshots = try world.snapshots()
        #expect(snapshots.allSatisfy { $0 == snapshots[0] }, "\(snapshots)")
        for context in [world.server.context, world.a.app, world.b.app] {
            let habits = try ListHabits(context: context)(includeArchived: true)
            #expect(habits.map(\.name) == ["walk", "read"])
            #expect(habits.last?.colorTag == .teal && habits.last?.stepAmount == 2.5)
        }
        // Taking the colour away is a change like any other.
        look.colorTag = .some(nil)
        look.step = .none
        try EditHabit(context: world.a.app)(habitName: "read", changes: look)
        try await world.exchange()
        #expect(try FindHabit(context: world.b.app)(named: "read").colorTag == nil)
        #expect(try FindHabit(context: world.b.app)(named: "read").stepAmount == 2.5)
        // A question set on one device and a description on the other both hold everywhere.
        var asked = HabitChanges()
        asked.question = "Did you read today?"
        try EditHabit(context: world.a.app)(habitName: "read", changes: asked)
        var described = HabitChanges()
        described.details = "Before bed"
        try EditHabit(context: world.b.app)(habitName: "read", changes: described)
        try await world.exchange()
        try await world.sync(world.a)
        for context in [world.server.context, world.a.app, world.b.app] {
            let read = try FindHabit(context: context)(named: "read")
            #expect(read.question == "Did you read today?" && read.details == "Before bed", "\(read.question ?? "-") \(read.details ?? "-")")
        }
    }

    @Test("two moves made at once to one place: every replica ends with one order and each habit at a place of its own")
    func concurrentMoves() async throws {
        let world = try World()
        try await world.shared()
        for name in ["walk", "write"] {
            world.later()
            try CreateHabit(context: world.a.app)(name: name, startedOn: today.adding(days: -5))
        }
        try await world.syncEach(world.a, world.b)
        // Offline on both: a puts walk first (walk 1, read 2), b puts write second (read 1, write 2,
        // walk 3). Each place merges by its own stamp: read 2 from a, write 2 from b, so without
        // settling two habits would hold place 2.
        try MoveHabit(context: world.a.app)(.name("walk"), to: .at(1))
        world.later()
        try MoveHabit(context: world.b.app)(.name("write"), to: .at(2))
        try await world.exchange()
        try await world.sync(world.a)
        let snapshots = try world.snapshots()
        #expect(snapshots.allSatisfy { $0 == snapshots[0] }, "\(snapshots.map { $0.difference(from: snapshots[0]) })")
        for context in [world.server.context, world.a.app, world.b.app] {
            let habits = try ListHabits(context: context)(includeArchived: true)
            #expect(habits.map(\.position) == [1, 2, 3], "\(habits.map { "\($0.name) \($0.position)" })")
            #expect(habits.map(\.name) == ["read", "write", "walk"])
        }
        #expect(try await world.sync(world.a) == SyncReport())
        #expect(try await world.sync(world.b) == SyncReport())
    }

    @Test("a user's sync-page limit makes the server's answers smaller: the device pages through them and holds everything")
    func pageLimit() async throws {
        let folder = try TemporaryFolder()
        let library = try PolicyLibrary(searchPath: [])
        let store = try SQLiteHabitStore(path: folder.path("server.sqlite"), owner: "alice")
        let server = LocalServer(HabitContext(store: store, clock: FixedClock(evening), boundary: zone, policies: library,
                                              limits: UserLimits([.syncPage: 3])))
        let maker = try Device(name: "maker", folder: folder, library: library, clock: ManualClock(evening))
        try CreateHabit(context: maker.app)(name: "read", startedOn: today.adding(days: -20))
        for offset in 0..<10 { _ = try RecordCompletion(context: maker.app)(habitName: "read", on: today.adding(days: -offset)) }
        _ = try await maker.client(LocalTransport(server)).sync()
        let reader = try Device(name: "reader", folder: folder, library: library, clock: ManualClock(evening))
        let before = server.answered
        let report = try await reader.client(LocalTransport(server)).sync()
        #expect(report.pulled >= 11, "\(report)")
        // At most three changes an answer (a habit's first revision rides along with it): four or more pulls.
        #expect(server.answered - before >= 4, "\(server.answered - before) requests")
        #expect(try Snapshot(reader.app) == Snapshot(server.context))
    }

    @Test("a delete racing an edit and new records: the delete wins, the records go with the habit")
    func deleteWins() async throws {
        let world = try World()
        try await world.shared()
        _ = try DeleteHabit(context: world.a.app)(habitName: "read")
        for offset in 0..<3 { _ = try RecordCompletion(context: world.b.app)(habitName: "read", on: today.adding(days: -offset)) }
        _ = try RenameHabit(context: world.b.app)(habitName: "read", to: "books")
        try await world.exchange()
        let snapshots = try world.snapshots()
        #expect(snapshots.allSatisfy { $0 == snapshots[0] })
        #expect(snapshots[0].habits.isEmpty)
        #expect(snapshots[0].completions.isEmpty)
    }

    @Test("two revisions from the same day: both kept, numbered in the order they reached the server; the later governs")
    func revisions() async throws {
        let world = try World()
        try await world.shared(startedOn: today.adding(days: -10))
        let day = today.adding(days: -3)
        try world.sameDayRuleEdits(from: day)
        try await world.sync(world.a)
        try await world.sync(world.b)
        try await world.sync(world.a)
        let snapshots = try world.snapshots()
        #expect(snapshots.allSatisfy { $0 == snapshots[0] })
        let habit = try #require(snapshots[0].habits.first)
        #expect(habit.revisions.map(\.number) == [1, 2, 3])
        #expect(habit.revisions.map(\.goal) == [1, 2, 3])
        #expect(habit.revision(on: day).goal == 3)
    }

    @Test("a sync cut after the server took a page repeats it and applies nothing twice; a second sync moves nothing")
    func interrupted() async throws {
        let world = try World()
        let records = SyncRequest.maxChanges + 200
        try CreateHabit(context: world.a.app)(name: "read", startedOn: today.adding(days: -records))
        try world.a.app.store.write { tx in
            let habit = try #require(try tx.habits.all().first)
            for offset in 0..<records {
                try tx.completions.insert(Completion(habitID: habit.id, completedOn: today.adding(days: -offset), recordedAt: world.a.app.clock.now))
            }
        }
        await #expect(throws: LocalTransport.Cut.self) {
            try await world.a.client(LocalTransport(world.server, failAt: 2, losesAnswer: true)).sync()
        }
        // The first page (the scripts, the habit, its revision and the first records) reached the server; its answer did not.
        let taken = try Snapshot(world.server.context).completions.count
        #expect(taken > 0 && taken < records, "\(taken)")
        let again = try await world.sync(world.a)
        #expect(again.pushed > records, "the page whose answer was lost goes again (and is known, change by change): \(again)")
        #expect(try Snapshot(world.server.context).completions.count == records)
        #expect(try await world.sync(world.a) == SyncReport())
        let pulled = try await world.sync(world.b)
        #expect(pulled.pulled >= records + 1 + 1)
        #expect(try Snapshot(world.b.app) == Snapshot(world.server.context))
        _ = try RecordCompletion(context: world.b.app)(habitName: "read", on: today.adding(days: -records))
        #expect(try await world.sync(world.b) == SyncReport(pushed: 1, pulled: 0))
        #expect(try await world.sync(world.a) == SyncReport(pushed: 0, pulled: 1))
    }

    /// A device with `records` records of one habit, written in one transaction.
    func history(_ device: Device, records: Int) throws {
        try CreateHabit(context: device.app)(name: "read", startedOn: today.adding(days: -records))
        try device.app.store.write { tx in
            let habit = try #require(try tx.habits.all().first)
            for offset in 0..<records {
                try tx.completions.insert(Completion(habitID: habit.id, completedOn: today.adding(days: -offset), recordedAt: device.app.clock.now))
            }
        }
    }

    @Test("the app keeps recording on its own connection while a sync runs; the next sync takes what it wrote")
    func recordingWhileSyncing() async throws {
        let world = try World()
        try history(world.a, records: 3000)
        let path = world.a.path
        let library = world.library, clock = world.clock
        // Another connection, as the app's own, records meanwhile on days the history leaves free
        // (stamped by the world's clock, as every replica of it is).
        let writer = Task.detached { () throws -> Int in
            let app = context(try SQLiteHabitStore(path: path, clock: clock), library, clock: clock)
            for offset in 0..<40 {
                _ = try CreateHabit(context: app)(name: "walk \(offset)", startedOn: today.adding(days: -3))
                _ = try RecordCompletion(context: app)(habitName: "walk \(offset)", on: today)
            }
            return 40
        }
        let report = try await world.sync(world.a)
        #expect(try await writer.value == 40)
        #expect(report.pushed > 3000)
        try await world.sync(world.a)
        #expect(try await world.sync(world.a) == SyncReport())
        let server = try Snapshot(world.server.context)
        #expect(server == (try Snapshot(world.a.app)))
        #expect(server.completions.count == 3040 && server.habits.count == 41)
    }

    @Test("a cancelled sync stops between pages; the next one finishes it and moves each change once")
    func cancelled() async throws {
        let world = try World()
        try history(world.a, records: 5000)
        let client = try world.a.client(LocalTransport(world.server))
        let task = Task { try await client.sync() }
        // Cancel as soon as the server has taken a page.
        while world.server.answered == 0 { try await Task.sleep(nanoseconds: 1_000_000) }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        let taken = try Snapshot(world.server.context).completions.count
        #expect(taken < 5000, "the sync stopped before its end (\(taken) of 5000 records)")
        try await world.sync(world.a)
        #expect(try Snapshot(world.server.context) == (try Snapshot(world.a.app)))
        #expect(try await world.sync(world.a) == SyncReport())
    }

    @Test("a push of several pages says more on each page but its last")
    func pagesSayMore() async throws {
        let world = try World()
        try history(world.a, records: 5000)
        /// The server, with what each push said of the pages after it.
        final class Said: SyncTransport, @unchecked Sendable {
            // Safe: `more` is touched only under `lock`.
            let inner: LocalTransport
            let lock = NSLock()
            var more: [Bool?] = []
            init(_ inner: LocalTransport) { self.inner = inner }
            func send(_ request: SyncRequest) async throws -> SyncResponse {
                if !request.changes.isEmpty { lock.withLock { more.append(request.more) } }
                return try await inner.send(request)
            }
        }
        let said = Said(LocalTransport(world.server))
        #expect(try await world.a.client(said).sync().pushed > 5000)
        let pages = said.lock.withLock { said.more }
        #expect(pages.count >= 3 && pages.dropLast().allSatisfy { $0 == true } && pages.last == false, "\(pages)")
    }

    @Test("more habits than a page takes: no page is over `maxChanges`, and every habit reaches the server with its rules")
    func manyHabits() async throws {
        let world = try World()
        let habits = SyncRequest.maxChanges * 6 / 5
        try world.a.app.store.write { tx in
            for index in 0..<habits {
                try tx.habits.insert(try Habit(name: "habit \(index)", startedOn: today.adding(days: -3), createdAt: world.a.app.clock.now))
            }
        }
        // The server refuses a request of more than `maxChanges` changes, and a new habit without revision 1.
        let report = try await world.sync(world.a)
        #expect(report.pushed == 2 * habits)
        #expect(world.server.answered >= 3)
        #expect(try Snapshot(world.server.context) == (try Snapshot(world.a.app)))
        let pulled = try await world.sync(world.b).pulled
        #expect(pulled == 2 * habits, "\(pulled)")
    }

    @Test("a push with one bad change writes none of it, and says which and why; a change sent twice is taken once")
    func refusesBadChanges() throws {
        let world = try World()
        let habit = UUID()
        let id = UUIDText.format(habit)
        let stamp = SyncStamp(hlc: 1 << 40, device: "d1")
        let good = SyncChange(kind: .habit, key: id, stamp: stamp, fields: [
            "id": .string(id), "name": .string("read"), "startedOn": .string("2026-11-01"), "archivedOn": .null,
            "createdAt": .number(1.7e9), "updatedAt": .number(1.7e9), "unit": .string(""),
        ])
        var rules: [String: JSONValue] = ["habit": .string(id), "number": .number(1), "effectiveFrom": .string("2026-11-01"),
                                          "goalThousandths": .number(1000), "createdAt": .number(1.7e9)]
        for (role, policy) in [("schedule", "daily"), ("progress", "goal"), ("streak", "strict")] {
            rules[role + "Policy"] = .string(policy)
            rules[role + "Params"] = .string("{}")
            rules[role + "Sha256"] = .null
        }
        let revision = SyncChange(kind: .revision, key: id + "/1", stamp: stamp, fields: rules)
        let record = UUIDText.format(UUID())
        var recordRow: [String: JSONValue] = [
            "id": .string(record), "habit": .string(id), "day": .string("2026-13-01"), "recordedAt": .number(1.7e9),
            "amountThousandths": .number(1000), "note": .null,
        ]
        // A change no typed value can hold goes as a device would send it: JSON, read by the server.
        func push(_ changes: [JSONValue]) throws -> SyncResponse {
            try world.server.answer(SyncRequest(json: .object(["device": .string("d1"), "since": .number(0), "changes": .array(changes)])))
        }
        let bad = JSONValue.object(["kind": .string("completion"), "key": .string(record), "hlc": .string(String(stamp.hlc)), "device": .string("d1"),
                                    "row": .object(recordRow)])
        #expect(throws: SyncError.invalidChange(index: 1, reason: "completion field \"day\" must be a day (YYYY-MM-DD)")) {
            try push([good.json, bad])
        }
        guard case .object(var lying) = good.json, case .object(var row)? = lying["row"] else { Issue.record("\(good.json)"); return }
        row["id"] = .string(UUIDText.format(UUID()))
        lying["row"] = .object(row)
        // Only the object form can name a key apart from its row.
        #expect(throws: SyncError.invalidChange(index: 0, reason: "has a key that is not its row's")) { try push([.object(lying)]) }
        recordRow["day"] = .string("2026-11-02")
        let orphan = SyncChange(kind: .completion, key: record, stamp: stamp, fields: recordRow)
        #expect(throws: SyncError.self) { try world.server.answer(SyncRequest(device: "d1", since: 0, changes: [orphan])) }
        #expect(throws: SyncError.invalidChange(index: 0, reason: "is a new habit without its rules: its revision 1 goes in the same request")) {
            try world.server.answer(SyncRequest(device: "d1", since: 0, changes: [good]))
        }
        #expect(try Snapshot(world.server.context).habits.isEmpty)
        #expect(try world.server.answer(SyncRequest(device: "d1", since: 0, changes: [good, revision])).accepted == 2)
        // The same record twice in one push, and again in the next: stored once.
        let twice = try world.server.answer(SyncRequest(device: "d1", since: 0, changes: [good, orphan, orphan]))
        #expect(twice.accepted == 1)
        #expect(try world.server.answer(SyncRequest(device: "d1", since: 0, changes: [orphan])).accepted == 0)
        #expect(try Snapshot(world.server.context).completions.map(\.id) == [UUIDText.parse(record)!])
    }
}
