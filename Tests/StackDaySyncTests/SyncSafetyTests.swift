import Foundation
import Testing
import StackDay
import StackDayLua
import StackDaySQLite
import StackDaySync
import StackDayTestSupport

/// Cases where a replica could lose data or stop syncing, each fixed at its root.
@Suite("sync safety")
struct SyncSafetyTests {
    /// A script change as a device would push it, stamped `hlc`.
    static func scriptChange(_ source: String, hlc: Int64) -> SyncChange {
        let sha = SHA256(of: Array(source.utf8)).description
        return SyncChange(kind: .script, key: sha, stamp: SyncStamp(hlc: hlc, device: "device-1"),
                          fields: ["sha256": .string(sha), "name": .string("mine"), "source": .string(source), "installedAt": .number(1_790_000_000)])
    }

    /// The hybrid time of `date` (milliseconds since 1970, shifted left 16 bits).
    static func hlc(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970 * 1000) << 16 }

    @Test("a pushed stamp more than a day ahead of the server's clock is refused, and nothing of its page is written (D6)")
    func futureStamps() throws {
        let folder = try TemporaryFolder()
        let library = try PolicyLibrary(searchPath: [])
        let server = context(try SQLiteHabitStore(path: folder.path("server.sqlite"), owner: "alice"), library)
        let now = max(server.clock.now, Date())
        let fine = Self.scriptChange("return { isDue = function() return true end }", hlc: Self.hlc(now.addingTimeInterval(3600)))
        for far in [Int64.max, Self.hlc(now.addingTimeInterval(2 * 24 * 3600))] {
            let page = SyncRequest(device: "device-1", since: 0, changes: [fine, Self.scriptChange("return {}", hlc: far)])
            #expect(throws: SyncError.self) { try ServeSync(context: server)(page) }
            #expect(try server.store.read { try $0.scripts.all() }.isEmpty, "nothing of the refused page is written")
        }
        // An hour ahead (a fast clock) is taken.
        let answer = try ServeSync(context: server)(SyncRequest(device: "device-1", since: 0, changes: [fine]))
        #expect(answer.accepted == 1)
    }

    @Test("a pushed record of a day that has not begun anywhere (9999-12-31, the day after tomorrow) is refused, naming it")
    func futureDays() throws {
        let now = Date()
        for day in ["9999-12-31", LocalDay(date: now.addingTimeInterval(2 * 86_400), timeZone: TimeZone(identifier: "UTC")!).iso] {
            let change = SyncChange(kind: .completion, key: "0B0B0B0B-0000-4000-8000-000000000002", stamp: SyncStamp(hlc: Self.hlc(now), device: "device-1"), fields: [
                "id": .string("0B0B0B0B-0000-4000-8000-000000000002"), "habit": .string("0A0A0A0A-0000-4000-8000-000000000001"),
                "day": .string(day), "recordedAt": .number(now.timeIntervalSince1970), "amountThousandths": .number(1000), "note": .null,
            ])
            #expect(throws: SyncError.invalidChange(index: 0, reason: "is of \(day), a day that has not begun anywhere yet")) {
                try SyncRules.checkTime(change, index: 0, now: now)
            }
        }
        let today = SyncChange(kind: .skip, key: "0C0C0C0C-0000-4000-8000-000000000003", stamp: SyncStamp(hlc: Self.hlc(now), device: "device-1"), fields: [
            "id": .string("0C0C0C0C-0000-4000-8000-000000000003"), "habit": .string("0A0A0A0A-0000-4000-8000-000000000001"),
            "day": .string(LocalDay(date: now, timeZone: TimeZone(identifier: "Pacific/Kiritimati")!).iso), "recordedAt": .number(now.timeIntervalSince1970),
        ])
        #expect(throws: Never.self) { try SyncRules.checkTime(today, index: 0, now: now) }
    }

    @Test("a script over the install limit is refused by sync too: one limit, in bytes (D10)")
    func scriptLimit() throws {
        #expect(SyncRules.scriptLimit == PolicyScript.maximumInstalledBytes)
        let folder = try TemporaryFolder()
        let server = context(try SQLiteHabitStore(path: folder.path("server.sqlite"), owner: "alice"), try PolicyLibrary(searchPath: []))
        // 100,000 three-byte characters: under the limit in characters, over it in bytes.
        let wide = "return {} --" + String(repeating: "가", count: 100_000)
        let change = Self.scriptChange(wide, hlc: Self.hlc(server.clock.now))
        #expect(throws: SyncError.self) { try ServeSync(context: server)(SyncRequest(device: "device-1", since: 0, changes: [change])) }
    }

    @Test("a user removed and added again starts with no history: a device syncing with it keeps every habit (D5)")
    func reAddedUser() async throws {
        let folder = try TemporaryFolder()
        let library = try PolicyLibrary(searchPath: [])
        let serverStore = try SQLiteHabitStore(path: folder.path("server.sqlite"))
        let admin = context(serverStore, library)
        _ = try ManageUsers(context: admin).add("alice", timeZone: "UTC")
        let server = LocalServer(context(serverStore.scoped(to: "alice"), library))
        let device = try Device(name: "a", folder: folder, library: library)
        try CreateHabit(context: device.app)(name: "read", startedOn: today.adding(days: -5))
        try RecordCompletion(context: device.app)(habitName: "read", on: today)
        _ = try await device.client(LocalTransport(server)).sync()
        #expect(try Snapshot(server.context).habits.map(\.name) == ["read"])

        _ = try ManageUsers(context: admin).remove("alice")
        _ = try ManageUsers(context: admin).add("alice", timeZone: "UTC")
        // The device syncs with the new user (a new token: a new peer, from position 0).
        let again = SyncClient(store: try SQLiteHabitStore(path: device.path), server: "http://server.test/new-token", transport: LocalTransport(server))
        _ = try await again.sync()
        let kept = try Snapshot(device.app)
        #expect(kept.habits.map(\.name) == ["read"] && kept.completions.count == 1, "the device lost what it held: \(kept)")
        #expect(try Snapshot(server.context) == kept, "the new user holds what the device pushed")
    }

    @Test("an import of several records into a store whose user syncs works, and the next sync pushes them (D3)")
    func importAfterSync() async throws {
        let world = try World()
        let (folder, library, server, device) = (world.folder, world.library, world.server, world.a)
        try CreateHabit(context: device.app)(name: "water", startedOn: today.adding(days: -5))
        _ = try await device.client(LocalTransport(server)).sync()
        // An export made elsewhere: a habit with three records (the bulk path).
        let other = context(try SQLiteHabitStore(path: folder.path("other.sqlite")), library)
        try CreateHabit(context: other)(name: "tea", startedOn: today.adding(days: -5))
        for offset in 0..<3 { try RecordCompletion(context: other)(habitName: "tea", on: today.adding(days: -offset)) }
        let summary = try ImportArchive(context: device.app)(try ExportArchive(context: other)())
        #expect(summary.inserted == 4, "the habit and its three records")
        _ = try await device.client(LocalTransport(server)).sync()
        let pushed = try Snapshot(server.context)
        #expect(pushed == (try Snapshot(device.app)), "the imported records reached the server")
        #expect(pushed.completions.count == 3)
    }

    /// A device's first push (a habit `water` of 1000 cups and a record of 3), as `device-1`, with
    /// the folder and library a server beside it can use.
    static func firstPush() throws -> (TemporaryFolder, PolicyLibrary, [SyncChange]) {
        let folder = try TemporaryFolder()
        let library = try PolicyLibrary(searchPath: [])
        let device = try Device(name: "a", folder: folder, library: library)
        try CreateHabit(context: device.app)(name: "water", startedOn: today.adding(days: -5), goal: 1000, unit: "cups")
        try RecordCompletion(context: device.app)(habitName: "water", amount: 3, on: today)
        let changes = try device.app.store.write { tx in
            let sync = try #require(tx.sync)
            return try sync.changes(after: 0, device: try sync.start { "device-1" }, scope: .own, limit: 100).changes
        }
        return (folder, library, changes)
    }

    @Test("values no other way of writing would store are refused by sync too, with invalid_input and nothing written", arguments: [
        ("habit", "name", JSONValue.string("   ")),
        ("habit", "name", .string("evil\u{1B}]0;title\u{07}")),
        ("habit", "unit", .string("cups\u{1B}[2J")),
        ("revision", "goalThousandths", .number(9e18)),
        ("revision", "goalThousandths", .number(0)),
        ("completion", "amountThousandths", .number(9e18)),
    ])
    func invalidValues(_ kind: String, _ field: String, _ value: JSONValue) async throws {
        let (folder, library, changes) = try Self.firstPush()
        // The page as a device would send it, one field of one kind changed in its JSON (no typed
        // value holds what the decoder refuses).
        guard case .object(var body) = SyncRequest(device: "device-1", since: 0, changes: changes, compact: false).json,
              case .array(var items)? = body["changes"] else { Issue.record("no object form"); return }
        var broken = 0
        for index in items.indices {
            guard case .object(var item) = items[index], item["kind"] == .string(kind), case .object(var row)? = item["row"] else { continue }
            row[field] = value
            item["row"] = .object(row)
            items[index] = .object(item)
            broken += 1
        }
        body["changes"] = .array(items)
        #expect(broken > 0)
        let server = context(try SQLiteHabitStore(path: folder.path("server.sqlite"), owner: "alice"), library)
        let error = try #require(throws: SyncError.self) { try ServeSync(context: server)(SyncRequest(json: .object(body))) }
        #expect(ErrorCode.of(error) == .invalidInput, "\(error)")
        #expect(try Snapshot(server).habits.isEmpty && Snapshot(server).completions.isEmpty)
        // The unbroken page is taken.
        #expect(try ServeSync(context: server)(SyncRequest(device: "device-1", since: 0, changes: changes)).accepted == changes.count)
    }

    @Test("a push of records alone is applied in slices that each commit, and a page that could fail late is still refused whole")
    func slicedPush() throws {
        let (folder, library, changes) = try Self.firstPush()
        let server = context(try SQLiteHabitStore(path: folder.path("server.sqlite"), owner: "alice"), library)
        _ = try ServeSync(context: server)(SyncRequest(device: "device-1", since: 0, changes: changes))
        let record = try #require(changes.first { $0.kind == .completion })
        func records(_ count: Int) -> [SyncChange] {
            (0..<count).map { _ in
                let id = UUID().uuidString
                var fields = record.fields ?? [:]
                fields["id"] = .string(id)
                return SyncChange(kind: .completion, key: id, stamp: record.stamp, fields: fields)
            }
        }
        let page = records(450)
        try server.store.read { tx in
            let sync = try #require(tx.sync)
            #expect(try ServeSync.slices(of: page, in: tx, sync).map(\.count) == Array(repeating: ServeSync.slice, count: 450 / ServeSync.slice))
        }
        // Alone, the page is one transaction (given the time: a busy machine may take 50 ms); with
        // another write waiting, one a slice; past the time bound, one a batch of slices (as many as
        // `sliceGroup` go together while no write waits).
        let alone = CountingStore(server.store, waiting: false)
        #expect(try ServeSync(context: context(alone, library), transactionBound: .max)(SyncRequest(device: "device-1", since: 0, changes: page)).accepted == 450)
        #expect(alone.writes == 1)
        let hurried = CountingStore(server.store, waiting: false)
        #expect(try ServeSync(context: context(hurried, library), transactionBound: 0)(SyncRequest(device: "device-1", since: 0, changes: page)).accepted == 0)
        #expect(hurried.writes == (450 / ServeSync.slice + ServeSync.sliceGroup - 1) / ServeSync.sliceGroup)
        let waited = CountingStore(server.store, waiting: true)
        #expect(try ServeSync(context: context(waited, library))(SyncRequest(device: "device-1", since: 0, changes: records(450))).accepted == 450)
        #expect(waited.writes == 450 / ServeSync.slice)
        #expect(try Snapshot(server).completions.count == 901)
        // The last record names a habit the server does not hold: one transaction, refused whole.
        var late = records(150)
        var stray = late[149].fields ?? [:]
        stray["habit"] = .string(UUID().uuidString)
        late[149] = SyncChange(kind: .completion, key: late[149].key, stamp: record.stamp, fields: stray)
        try server.store.read { tx in
            let sync = try #require(tx.sync)
            #expect(try ServeSync.slices(of: late, in: tx, sync).count == 1)
        }
        #expect(throws: SyncError.self) { try ServeSync(context: server)(SyncRequest(device: "device-1", since: 0, changes: late)) }
        #expect(try Snapshot(server).completions.count == 901, "nothing of the refused page was written")
    }

    @Test("a start moved on one side and an archive on the other never merge into a habit archived before it starts (D1)")
    func datesMergeAsAPair() throws {
        let early = SyncStamp(hlc: 100, device: "a"), late = SyncStamp(hlc: 200, device: "b")
        let base = SyncHabit(id: "0A0A0A0A-0000-4000-8000-000000000001", name: "read", startedOn: try LocalDay(iso: "2026-11-01"), createdAt: 1,
                             updatedAt: 1, unit: "")
        var moved = base
        moved.startedOn = try LocalDay(iso: "2026-11-15")
        var archived = base
        archived.archivedOn = try LocalDay(iso: "2026-11-10")
        // Either way round, the pair comes from the later change (the move), with its stamp.
        let orders: [(SyncHabit, [SyncHabitField: SyncStamp], SyncHabit, [SyncHabitField: SyncStamp])] = [
            (moved, [.startedOn: late], archived, [.archivedOn: early]), (archived, [.archivedOn: early], moved, [.startedOn: late]),
        ]
        for (held, heldStamps, incoming, incomingStamps) in orders {
            let merged = SyncMerger.mergeHabit(held: held, heldStamps: heldStamps, incoming: incoming, incomingStamps: incomingStamps)
            #expect(merged.habit.startedOn.iso == "2026-11-15" && merged.habit.archivedOn == nil)
            #expect(merged.stamps["startedOn"] == late && merged.stamps["archivedOn"] == late)
        }
        // Dates that do not clash still merge one by one.
        var later = base
        later.archivedOn = try LocalDay(iso: "2026-11-20")
        let both = SyncMerger.mergeHabit(held: moved, heldStamps: [.startedOn: early], incoming: later, incomingStamps: [.archivedOn: late])
        #expect(both.habit.startedOn.iso == "2026-11-15" && both.habit.archivedOn?.iso == "2026-11-20")
    }

    @Test("two offline edits of a habit's dates leave every replica equal, valid, and syncing after (D1)")
    func offlineDateEdits() async throws {
        let world = try World()
        let (server, a, b) = (world.server, world.a, world.b)
        try await world.shared(startedOn: today.adding(days: -29))
        _ = try ArchiveHabit(context: b.app)(habitName: "read", on: today.adding(days: -20))
        world.later()
        var changes = HabitChanges()
        changes.startedOn = today.adding(days: -15)
        _ = try EditHabit(context: a.app)(habitName: "read", changes: changes)
        try await world.syncEach(b, a, b, a)
        let snapshots = try world.snapshots()
        #expect(snapshots.allSatisfy { $0 == snapshots[0] }, "\(snapshots)")
        let habit = try #require(snapshots[0].habits.first)
        #expect(habit.startedOn == today.adding(days: -15) && habit.archivedOn == nil, "the later edit's dates: \(habit)")
        #expect(try SummarizeHabits(context: server.context)().count == 1, "the server still reads the user's habits")
    }

    @Test("a push the server renumbered, whose answer was lost, is pushed again and adds nothing (D2)")
    func repeatedRenumberedPush() async throws {
        let world = try World()
        let (server, a, b) = (world.server, world.a, world.b)
        try await world.shared(startedOn: today.adding(days: -10))
        let day = today.adding(days: -3)
        try world.sameDayRuleEdits(from: day)
        try await world.sync(a)
        // b's revision 2 is renumbered 3 by the server, and the answer saying so is lost.
        await #expect(throws: LocalTransport.Cut.self) { try await b.client(LocalTransport(server, failAt: 1, losesAnswer: true)).sync() }
        try await world.syncEach(b, a, b)
        let snapshots = try world.snapshots()
        #expect(snapshots.allSatisfy { $0 == snapshots[0] }, "\(snapshots)")
        let habit = try #require(snapshots[0].habits.first)
        #expect(habit.revisions.map(\.goal) == [1, 2, 3], "b's rules once: \(habit.revisions.map(\.goal))")
    }

    @Test("a merge that moves only a habit's field stamps is logged, so every replica ends with the same stamps (D11)")
    func stampOnlyMerges() async throws {
        let world = try World()
        let (serverPath, a, b) = (world.serverPath, world.a, world.b)
        try await world.shared(startedOn: today.adding(days: -10))
        _ = try RenameHabit(context: a.app)(habitName: "read", to: "book")
        try await world.sync(a)
        world.later()
        // The same name, later: on the server only the name's stamp moves.
        _ = try RenameHabit(context: b.app)(habitName: "read", to: "book")
        try await world.syncEach(b, a, b)
        let stamps = [serverPath, a.path, b.path].map { SQLiteShell.run($0, "SELECT hlc || ' ' || device FROM sync_fields WHERE field = 'name'") }
        #expect(stamps.allSatisfy { $0 == stamps[0] } && !stamps[0].isEmpty, "\(stamps)")
    }

    @Test("an import of an older export keeps deleted what sync deleted, and says so; replicas stay equal (D7)")
    func importKeepsTombstones() async throws {
        let world = try World()
        let (server, device) = (world.server, world.a)
        try CreateHabit(context: device.app)(name: "read", startedOn: today.adding(days: -10))
        try CreateHabit(context: device.app)(name: "gone", startedOn: today.adding(days: -10))
        for offset in 0..<3 { try RecordCompletion(context: device.app)(habitName: "read", on: today.adding(days: -offset)) }
        try RecordCompletion(context: device.app)(habitName: "gone", on: today)
        _ = try await device.client(LocalTransport(server)).sync()
        let older = try ExportArchive(context: device.app)()
        _ = try DeleteHabit(context: device.app)(habitName: "gone")
        _ = try CancelCompletion(context: device.app)(habitName: "read", on: today)
        _ = try await device.client(LocalTransport(server)).sync()
        let summary = try ImportArchive(context: device.app)(older)
        #expect(summary.inserted == 0 && summary.keptDeleted == 3, "the habit, its record and the undone record: \(summary)")
        let after = try Snapshot(device.app)
        #expect(after.habits.map(\.name) == ["read"] && after.completions.count == 2)
        _ = try await device.client(LocalTransport(server)).sync()
        #expect(try Snapshot(server.context) == after)
    }

    @Test("a server restored from a backup gets back from the device what it lost; later syncs succeed (D4)")
    func restoredServer() async throws {
        let folder = try TemporaryFolder()
        let library = try PolicyLibrary(searchPath: [])
        let serverPath = folder.path("server.sqlite")
        let device = try Device(name: "a", folder: folder, library: library)
        do {
            let server = LocalServer(context(try SQLiteHabitStore(path: serverPath, owner: "alice"), library))
            try CreateHabit(context: device.app)(name: "read", startedOn: today.adding(days: -10))
            try RecordCompletion(context: device.app)(habitName: "read", on: today.adding(days: -2))
            _ = try await device.client(LocalTransport(server)).sync()
            #expect(SQLiteShell.run(serverPath, "VACUUM INTO '\(folder.path("backup.sqlite"))'").isEmpty)
            // After the backup: a new habit, and a record of the old one.
            try CreateHabit(context: device.app)(name: "gym", startedOn: today.adding(days: -3))
            try RecordCompletion(context: device.app)(habitName: "read", on: today)
            try RecordCompletion(context: device.app)(habitName: "gym", on: today)
            _ = try await device.client(LocalTransport(server)).sync()
        }
        // The server's store is restored from the backup.
        let restored = LocalServer(context(try SQLiteHabitStore(path: folder.path("backup.sqlite"), owner: "alice"), library))
        #expect(try Snapshot(restored.context).habits.map(\.name) == ["read"])
        _ = try await device.client(LocalTransport(restored)).sync()
        let held = try Snapshot(device.app)
        #expect(try Snapshot(restored.context) == held, "the device pushed back what the server lost")
        #expect(held.habits.count == 2 && held.completions.count == 3)
        try RecordCompletion(context: device.app)(habitName: "gym", on: today.adding(days: -1))
        _ = try await device.client(LocalTransport(restored)).sync()
        #expect(try Snapshot(restored.context) == (try Snapshot(device.app)))
    }

    @Test("habits are listed in creation order on every replica, whatever order they arrived in")
    func oneOrder() async throws {
        let world = try World()
        let (server, a, b) = (world.server, world.a, world.b)
        func at(_ device: Device, hours: Double) throws -> HabitContext {
            HabitContext(store: try SQLiteHabitStore(path: device.path), clock: FixedClock(a.app.clock.now.addingTimeInterval(hours * 3600)),
                         boundary: zone, policies: world.library)
        }
        // b's habit is made first, a's later; a syncs first.
        try CreateHabit(context: at(b, hours: -3))(name: "beta", startedOn: today.adding(days: -5))
        try CreateHabit(context: at(a, hours: -1))(name: "alpha", startedOn: today.adding(days: -5))
        try await world.syncEach(a, b, a)
        for replica in [server.context, a.app, b.app] {
            #expect(try replica.store.read { try $0.habits.all() }.map(\.name) == ["beta", "alpha"])
        }
    }

    @Test("a device is told when the server renamed one of its habits to settle two of one name")
    func renameSaid() async throws {
        let world = try World()
        func at(_ device: Device, hours: Double) throws -> HabitContext {
            HabitContext(store: try SQLiteHabitStore(path: device.path), clock: FixedClock(world.a.app.clock.now.addingTimeInterval(hours * 3600)),
                         boundary: zone, policies: world.library)
        }
        try CreateHabit(context: at(world.a, hours: -3))(name: "x", startedOn: today.adding(days: -5))
        try CreateHabit(context: at(world.b, hours: -1))(name: "x", startedOn: today.adding(days: -5))
        #expect(try await world.sync(world.a).renamed.isEmpty)
        let report = try await world.sync(world.b)
        #expect(report.renamed == [SyncRename(from: "x", to: "x (2)")], "\(report)")
        #expect(report.json.objectValue?["renamed"] != nil)
        #expect(try await world.sync(world.a).renamed.isEmpty, "a's own habit kept its name")
        #expect(try await world.sync(world.b) == SyncReport(), "said once")
    }

    @Test("two rule edits made while a sync waits between push and pull keep their order when the pull takes their first number (D8)")
    func editsDuringASync() async throws {
        let world = try World()
        let (a, b) = (world.a, world.b)
        try await world.shared(startedOn: today.adding(days: -10))
        let day = today.adding(days: -2)
        var changes = HabitChanges(rulesFrom: .day(day))
        changes.goal = 3
        _ = try EditHabit(context: b.app)(habitName: "read", changes: changes)
        try await world.sync(b)
        _ = try RecordCompletion(context: a.app)(habitName: "read", on: today)
        let app = a.app
        let transport = PausingTransport(world.server) {
            for goal in [5.0, 7.0] {
                var edit = HabitChanges(rulesFrom: .day(day))
                edit.goal = goal
                _ = try EditHabit(context: app)(habitName: "read", changes: edit)
            }
        }
        _ = try await a.client(transport).sync()
        try await world.syncEach(a, b, a)
        let snapshots = try world.snapshots()
        #expect(snapshots.allSatisfy { $0 == snapshots[0] }, "\(snapshots)")
        let habit = try #require(snapshots[0].habits.first)
        #expect(habit.revisions.map(\.goal) == [1, 3, 5, 7], "\(habit.revisions.map(\.goal))")
    }
}
