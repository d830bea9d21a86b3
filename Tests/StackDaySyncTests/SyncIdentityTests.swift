import Foundation
import Testing
import StackDay
import StackDaySQLite
import StackDaySync
import StackDayTestSupport

/// Devices that ordinary events used to strand: a lost answer followed by an edit, a server at two
/// addresses, a store copied with a change not pushed yet, a server restored from a backup, a
/// device restored from its own, a clock that ran ahead and was put right. Each ends with every
/// replica holding the same, nothing lost, and no sync refused.
@Suite("sync identities: nothing strands a device")
struct SyncIdentityTests {
    /// A copy of `device`'s file taken now, as another device of the world (the same id).
    func copy(_ device: Device, as name: String, in world: World) throws -> Device {
        let copy = world.folder.path("\(name).sqlite")
        #expect(SQLiteShell.run(device.path, "VACUUM INTO '\(copy)'") == [])
        return try Device(name: name, folder: world.folder, library: world.library, clock: world.clock)
    }

    func expectEqual(_ world: World, _ others: [Device] = []) throws {
        let snapshots = try world.snapshots() + others.map { try Snapshot($0.app) }
        #expect(snapshots.allSatisfy { $0 == snapshots[0] }, "\(snapshots)")
    }

    @Test("a lost answer, then the record the push began with undone and the habit renamed: the next sync is taken, change by change")
    func lostAnswerThenEdit() async throws {
        let world = try World()
        try await world.shared(startedOn: today.adding(days: -10))
        _ = try RecordCompletion(context: world.a.app)(habitName: "read", on: today.adding(days: -2))
        _ = try RecordCompletion(context: world.a.app)(habitName: "read", on: today.adding(days: -1))
        // The push is taken, its answer lost.
        do { _ = try await world.a.client(LocalTransport(world.server, failAt: 2, losesAnswer: true)).sync() } catch is LocalTransport.Cut {}
        world.later()
        _ = try CancelCompletion(context: world.a.app)(habitName: "read", on: today.adding(days: -2))
        _ = try RenameHabit(context: world.a.app)(habitName: "read", to: "reading")
        let report = try await world.sync(world.a)
        #expect(!report.copied)
        try await world.sync(world.b)
        try expectEqual(world)
        #expect(try Snapshot(world.server.context).completions.map(\.completedOn) == [today.adding(days: -1)])
    }

    @Test("one server at two addresses is one server: a switch is a sync like any other")
    func twoAddresses() async throws {
        let world = try World()
        try await world.shared()
        _ = try RecordCompletion(context: world.a.app)(habitName: "read", on: today)
        #expect(try await world.a.client(LocalTransport(world.server), server: "http://192.168.1.2:8080").sync().pushed == 1)
        #expect(try await world.a.client(LocalTransport(world.server), server: "https://home.example").sync() == SyncReport())
        world.later()
        _ = try RecordCompletion(context: world.b.app)(habitName: "read", on: today.adding(days: -1))
        try await world.sync(world.b)
        #expect(try await world.a.client(LocalTransport(world.server), server: "http://192.168.1.2:8080").sync().pulled == 1)
        try expectEqual(world)
    }

    @Test("a store copied with a change not pushed: both copies' records reach every replica; the copy takes an id of its own by itself, once")
    func copiedWithUnpushed() async throws {
        let world = try World()
        try await world.shared(startedOn: today.adding(days: -10))
        _ = try RecordCompletion(context: world.a.app)(habitName: "read", on: today.adding(days: -5))
        let copy = try copy(world.a, as: "a-copy", in: world)
        world.later()
        _ = try RecordCompletion(context: world.a.app)(habitName: "read", on: today.adding(days: -1))
        _ = try RecordCompletion(context: copy.app)(habitName: "read", on: today.adding(days: -2))
        #expect(!(try await world.sync(world.a)).copied)
        let healed = try await world.sync(copy)
        #expect(healed.copied)
        try await world.syncEach(world.a, world.b, copy)
        try expectEqual(world, [copy])
        #expect(Set(try Snapshot(world.server.context).completions.map(\.completedOn)) == [today.adding(days: -5), today.adding(days: -1), today.adding(days: -2)])
        // From then on both sync as themselves, and quietly.
        for device in [world.a, copy, world.b] { #expect(try await world.sync(device) == SyncReport()) }
    }

    @Test("a device restored from its own older backup gets back what it pushed since, and pushes what it made after")
    func restoredDevice() async throws {
        let world = try World()
        try await world.shared(startedOn: today.adding(days: -10))
        let backup = try copy(world.a, as: "a-backup", in: world)
        world.later()
        try CreateHabit(context: world.a.app)(name: "walk", startedOn: today.adding(days: -3))
        _ = try RecordCompletion(context: world.a.app)(habitName: "walk", on: today.adding(days: -1))
        try await world.syncEach(world.a, world.b)
        _ = try RecordCompletion(context: backup.app)(habitName: "read", on: today)
        try await world.sync(backup)
        try await world.syncEach(world.b, backup)
        let snapshots = [try Snapshot(world.server.context), try Snapshot(world.b.app), try Snapshot(backup.app)]
        #expect(snapshots.allSatisfy { $0 == snapshots[0] }, "\(snapshots)")
        #expect(Set(snapshots[0].habits.map(\.name)) == ["read", "walk"] && snapshots[0].completions.count == 2)
    }

    /// Both devices share "read"; the server's file is saved to a backup; then the server (its
    /// pages) makes "web", which the backup lacks. The world and the backup's path.
    func webHabitAfterBackup() async throws -> (World, String) {
        let world = try World()
        try await world.shared(startedOn: today.adding(days: -10))
        let backup = world.folder.path("server-backup.sqlite")
        #expect(SQLiteShell.run(world.serverPath, "VACUUM INTO '\(backup)'") == [])
        world.later()
        try CreateHabit(context: world.server.context)(name: "web", startedOn: today.adding(days: -2))
        return (world, backup)
    }

    @Test("a server restored from a backup gets back a habit made on the web after it, from a device that holds it; recording into it is taken")
    func restoredServer() async throws {
        let (world, backup) = try await webHabitAfterBackup()
        try await world.sync(world.b)
        // The server's file is put back from the backup: "web" is lost there.
        let restored = LocalServer(context(try SQLiteHabitStore(path: try {
            let path = world.folder.path("restored.sqlite")
            try FileManager.default.copyItem(atPath: backup, toPath: path)
            return path
        }(), owner: "alice", clock: world.clock), world.library, clock: world.clock))
        world.later()
        _ = try RecordCompletion(context: world.b.app)(habitName: "web", on: today)
        let report = try await world.b.client(LocalTransport(restored)).sync()
        #expect(report.restored)
        _ = try await world.a.client(LocalTransport(restored)).sync()
        let snapshots = [try Snapshot(restored.context), try Snapshot(world.a.app), try Snapshot(world.b.app)]
        #expect(snapshots.allSatisfy { $0 == snapshots[0] }, "\(snapshots)")
        #expect(Set(snapshots[0].habits.map(\.name)) == ["read", "web"] && snapshots[0].completions.count == 1)
    }

    @Test("a server put back in place from a backup, whose log grew past a device's position again: the device's mark tells it, and what it lost comes back")
    func restoredInPlace() async throws {
        let (world, backup) = try await webHabitAfterBackup()
        // a pulls "web" and a record of it, and holds a position past the backup's log.
        _ = try RecordCompletion(context: world.server.context)(habitName: "web", on: today.adding(days: -1))
        try await world.sync(world.a)
        // `.restore` into the same file: the store's own identity does not change.
        #expect(SQLiteShell.restore(world.serverPath, from: backup) == nil)
        // b (whose position is the backup's) records enough that the log passes a's position again.
        for days in 2...6 { _ = try RecordCompletion(context: world.b.app)(habitName: "read", on: today.adding(days: -days)) }
        #expect(!(try await world.sync(world.b)).restored)
        let report = try await world.sync(world.a)
        #expect(report.restored, "\(report)")
        try await world.syncEach(world.b, world.a)
        try expectEqual(world)
        let server = try Snapshot(world.server.context)
        #expect(Set(server.habits.map(\.name)) == ["read", "web"] && server.completions.count == 6)
    }

    @Test("a clock once more than a day ahead: refused while it is wrong, taken back to the server's once it is fixed")
    func clockPutRight() async throws {
        let world = try World()
        try await world.shared()
        // A phone of its own clock, which runs three days ahead of the server's (the machine's).
        let clock = ManualClock(world.clock.now)
        let phone = try Device(name: "phone", folder: world.folder, library: world.library, clock: clock)
        try await world.sync(phone)
        let ahead = Date().addingTimeInterval(3 * 86_400).timeIntervalSince(clock.now)
        clock.advance(by: ahead)
        _ = try RecordCompletion(context: phone.app)(habitName: "read", on: today)
        await #expect(throws: SyncError.self) { try await world.sync(phone) }
        clock.advance(by: -ahead + 1)
        let report = try await world.sync(phone)
        #expect(report.pushed == 1 && report.restamped == 1, "\(report)")
        try await world.syncEach(world.a, world.b)
        try expectEqual(world, [phone])
    }
}
