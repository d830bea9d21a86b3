import Foundation
import Testing
import StackDay
import StackDaySQLite
import StackDaySync
import StackDayTestSupport

/// A copy of a store (a copied file, a restored backup) syncing under its original's id.
@Suite("sync device histories")
struct SyncHistoryTests {
    static let held = SyncHistory(current: "t2", previous: "t1", previousFirst: "completion/R1/5/d")

    @Test("who is taken and who is a copy", arguments: [
        // (held, token, first change, taken, history kept)
        (nil as SyncHistory?, nil as String?, nil as String?, true, "new"),
        (held, "t2", nil, true, "as held"),
        (held, "t2", "completion/R3/7/d", true, "new"),
        (held, "t1", "completion/R1/5/d", true, "as held"), // the push whose answer was lost, again
        (held, "t1", "completion/R2/6/d", false, "-"), // a copy's own push, from the same token
        (held, "t1", nil, false, "-"), // a copy pulling
        (held, "t0", nil, false, "-"),
        (held, nil, "completion/R4/8/d", true, "new"), // starting over with this server
        (SyncHistory(current: "retired", retired: true), "t2", nil, false, "-"),
    ])
    func judge(held: SyncHistory?, token: String?, first: String?, taken: Bool, kept: String) throws {
        do {
            let judged = try SyncHistory.judge(held, device: "d", token: token, first: first) { "new" }
            #expect(taken)
            #expect((judged.keep == nil ? "as held" : judged.keep!.current) == kept)
            #expect(judged.answer == (judged.keep?.current ?? held?.current))
            if let keep = judged.keep, let held { #expect(keep.previous == held.current && keep.previousFirst == first) }
        } catch {
            #expect(!taken, "\(error)")
            guard case .deviceCopied = error else { Issue.record("\(error)"); return }
        }
    }

    /// A copy of `device`'s file taken now, as another device of the world (the same id).
    func copy(_ device: Device, as name: String, in world: World) throws -> Device {
        let copy = world.folder.path("\(name).sqlite")
        #expect(SQLiteShell.run(device.path, "VACUUM INTO '\(copy)'") == [])
        return try Device(name: name, folder: world.folder, library: world.library, clock: world.clock)
    }

    func expectCopied(_ device: Device, _ world: World, retired: Bool) async {
        do {
            try await world.sync(device)
            Issue.record("\(device.name) synced")
        } catch SyncError.deviceCopied(_, let wasRetired) {
            #expect(wasRetired == retired)
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test("a copied store file is refused as device_copied; --new-device on each copy, and every replica holds both copies' records")
    func copiedFile() async throws {
        let world = try World()
        try await world.shared(startedOn: today.adding(days: -10))
        let copy = try copy(world.a, as: "a-copy", in: world)
        _ = try RecordCompletion(context: world.a.app)(habitName: "read", on: today.adding(days: -1))
        try await world.sync(world.a)
        _ = try RecordCompletion(context: copy.app)(habitName: "read", on: today.adding(days: -2))
        await expectCopied(copy, world, retired: false)
        let moved = try await copy.client(LocalTransport(world.server), newDevice: true).sync()
        #expect(moved.pushed > 0)
        await expectCopied(world.a, world, retired: true)
        _ = try await world.a.client(LocalTransport(world.server), newDevice: true).sync()
        try await world.syncEach(copy, world.b, world.a, copy)
        let snapshots = try world.snapshots() + [try Snapshot(copy.app)]
        #expect(snapshots.allSatisfy { $0 == snapshots[0] }, "\(snapshots)")
        #expect(Set(snapshots[0].completions.map(\.completedOn)) == [today.adding(days: -1), today.adding(days: -2)])
        // From then on both sync as themselves.
        for device in [world.a, copy, world.b] { #expect(try await world.sync(device) == SyncReport()) }
    }

    @Test("copies that diverged before the server kept histories: found at the next push, and --new-device serves every entry of the old id again")
    func divergedBeforeHistories() async throws {
        let world = try World()
        try await world.shared(startedOn: today.adding(days: -10))
        let copy = try copy(world.a, as: "a-copy", in: world)
        _ = try RecordCompletion(context: world.a.app)(habitName: "read", on: today.adding(days: -1))
        try await world.sync(world.a)
        // The copy holds no token, as a store from an older build: it is taken, and pulls past a's
        // record without it (both are one device to the server).
        #expect(SQLiteShell.run(copy.path, "UPDATE sync_peers SET history = NULL") == [])
        _ = try RecordCompletion(context: copy.app)(habitName: "read", on: today.adding(days: -2))
        try await world.sync(copy)
        #expect(try Snapshot(copy.app).completions.count == 1)
        _ = try RecordCompletion(context: world.a.app)(habitName: "read", on: today.adding(days: -3))
        await expectCopied(world.a, world, retired: false)
        _ = try await world.a.client(LocalTransport(world.server), newDevice: true).sync()
        await expectCopied(copy, world, retired: true)
        _ = try await copy.client(LocalTransport(world.server), newDevice: true).sync()
        try await world.syncEach(world.a, world.b, copy)
        let snapshots = try world.snapshots() + [try Snapshot(copy.app)]
        #expect(snapshots.allSatisfy { $0 == snapshots[0] }, "\(snapshots)")
        #expect(snapshots[0].completions.count == 3)
    }

    @Test("a device restored from its own older backup is told, and --new-device brings back what it pushed since (D4)")
    func restoredDevice() async throws {
        let world = try World()
        try await world.shared(startedOn: today.adding(days: -10))
        let backup = try copy(world.a, as: "a-backup", in: world)
        try CreateHabit(context: world.a.app)(name: "walk", startedOn: today.adding(days: -3))
        _ = try RecordCompletion(context: world.a.app)(habitName: "walk", on: today.adding(days: -1))
        try await world.sync(world.a)
        try await world.sync(world.b)
        _ = try RecordCompletion(context: world.b.app)(habitName: "walk", on: today)
        try await world.sync(world.b)
        // a's file is lost; its backup syncs in its place.
        _ = try RecordCompletion(context: backup.app)(habitName: "read", on: today)
        await expectCopied(backup, world, retired: false)
        _ = try await backup.client(LocalTransport(world.server), newDevice: true).sync()
        try await world.syncEach(world.b, backup)
        let snapshots = [try Snapshot(world.server.context), try Snapshot(world.b.app), try Snapshot(backup.app)]
        #expect(snapshots.allSatisfy { $0 == snapshots[0] }, "\(snapshots)")
        #expect(Set(snapshots[0].habits.map(\.name)) == ["read", "walk"] && snapshots[0].completions.count == 3)
    }
}
