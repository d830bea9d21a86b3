import Foundation
import Testing
import StackDay
import StackDayLua
import StackDayPostgres
import StackDaySQLite
import StackDaySync
import StackDayTestSupport

/// Three devices and a server, each device (and the server, through its API) changing things at random, syncing in
/// random orders, some syncs cut half-way and run again: at the end all four hold the same
/// habits, revisions, records, skips, scripts and groups, every record made and never deleted is there,
/// and every figure is the same everywhere, read through the cache or without it.
@Suite("sync converges")
struct ConvergenceTests {
    /// Names, two of them one name in NFC and NFD (the same text to a person, other bytes to a store).
    static let names = ["water", "read", "run", "stretch", "Water ", "caf\u{E9}", "cafe\u{301}"]
    static let policies = [StreakScripts.counting, StreakScripts.resetting]
    static let groupNames = ["morning", "Morning", "evening"]

    /// What the test remembers of what devices did.
    struct Ledger {
        var made: [UUID: UUID] = [:]  // record → habit
        var undone: Set<UUID> = []
        var deletedHabits: Set<UUID> = []
        /// The stream group operations are drawn from.
        var groups: SeededGenerator
        /// What happened, in order, for a failure to tell.
        var events: [String] = []
    }

    static func pick<T>(_ items: [T], _ random: inout SeededGenerator) -> T? {
        items.isEmpty ? nil : items[Int(random.next() % UInt64(items.count))]
    }

    /// One random operation on a device; a refusal (a name taken, nothing to undo) is fine.
    static func operate(_ app: HabitContext, _ random: inout SeededGenerator, _ ledger: inout Ledger, by who: String = "server") throws {
        let habits = try app.store.read { try $0.habits.all() }
        let day = today.adding(days: -Int(random.next() % 30))
        let habit = pick(habits, &random)
        do {
            switch random.next() % 100 {
            case 0..<12:
                let id = UUID(uuid: withUnsafeBytes(of: (random.next(), random.next())) { $0.load(as: uuid_t.self) })
                try CreateHabit(context: app)(name: pick(names, &random)!, startedOn: today.adding(days: -40), id: id)
            case 12..<50:
                guard let habit else { return }
                let record = try RecordCompletion(context: app)(.id(habit.id), amount: Double(1 + random.next() % 3), on: max(day, habit.startedOn),
                                                                note: random.next() % 4 == 0 ? "note \(random.next() % 100)" : nil)
                ledger.made[record.id] = habit.id
                ledger.events.append("record \(record.id.uuidString.prefix(8)) of \(habit.id.uuidString.prefix(8)) on \(record.completedOn) by \(who)")
            case 50..<60:
                guard let habit else { return }
                let record = try CancelCompletion(context: app)(.id(habit.id), on: max(day, habit.startedOn))
                ledger.undone.insert(record.id)
                ledger.events.append("undo \(record.id.uuidString.prefix(8))")
            case 60..<68:
                guard let habit else { return }
                _ = try SkipDays(context: app)(.id(habit.id), days: LocalDayRange(max(day, habit.startedOn)...max(day, habit.startedOn)))
            case 68..<74:
                guard let habit else { return }
                _ = try UnskipDays(context: app)(.id(habit.id), days: LocalDayRange(max(day, habit.startedOn)...max(day, habit.startedOn)))
            case 74..<80:
                guard let habit else { return }
                _ = try RenameHabit(context: app)(.id(habit.id), to: pick(names, &random)! + (random.next() % 2 == 0 ? "" : " \(random.next() % 3)"))
            case 80..<86:
                guard let habit else { return }
                var changes = HabitChanges(rulesFrom: .day(max(day, habit.startedOn)))
                changes.goal = Double(1 + random.next() % 4)
                if random.next() % 3 == 0 { changes.streak = PolicyChoice(name: random.next() % 2 == 0 ? "mine" : "strict") }
                _ = try EditHabit(context: app)(.id(habit.id), changes: changes)
            case 86..<88:
                guard let habit else { return }
                let place = 1 + Int(random.next() % UInt64(max(1, habits.count)))
                _ = try MoveHabit(context: app)(.id(habit.id), to: .at(place))
                ledger.events.append("move \(habit.id.uuidString.prefix(8)) to \(place) by \(who)")
            case 88..<90:
                guard let habit else { return }
                if habit.archivedOn == nil {
                    _ = try ArchiveHabit(context: app)(.id(habit.id), on: max(day, habit.startedOn))
                } else {
                    _ = try UnarchiveHabit(context: app)(.id(habit.id))
                }
            case 90..<94:
                guard let habit else { return }
                _ = try DeleteHabit(context: app)(.id(habit.id))
                ledger.deletedHabits.insert(habit.id)
                ledger.events.append("delete habit \(habit.id.uuidString.prefix(8))")
            default:
                _ = try InstallPolicy(context: app)(name: "mine", source: pick(policies, &random)!)
            }
        } catch where ErrorCode.of(error) != .storeFailed {
        }
        // Groups, one operation in eight, drawn from a stream of their own so that the habits'
        // operations stay as each seed has always made them.
        if ledger.groups.next() % 8 == 0 { try operateGroup(app, habits: habits, day: day, &ledger, by: who) }
    }

    /// One random operation on a device's groups: made (two devices may make one of a name), their
    /// members changed from a day, renamed, removed. A refusal is fine.
    static func operateGroup(_ app: HabitContext, habits: [Habit], day: LocalDay, _ ledger: inout Ledger, by who: String) throws {
        var random = ledger.groups
        defer { ledger.groups = random }
        let groups = try app.store.read { try $0.groups.all() }
        let members = Array(Set((0..<(1 + random.next() % 2)).compactMap { _ in pick(habits, &random)?.name }))
        do {
            switch (random.next() % 4, pick(groups, &random)) {
            case (0, _), (_, nil):
                guard !members.isEmpty else { return }
                let group = try CreateGroup(context: app)(name: pick(groupNames, &random)!, members: members)
                ledger.events.append("group \(group.name) made by \(who)")
            case (1, let group?):
                guard !members.isEmpty else { return }
                _ = try EditGroup(context: app)(group.name, EditGroup.Changes(members: members, from: max(day, group.latest.effectiveFrom)))
                ledger.events.append("group \(group.name) members \(members) by \(who)")
            case (2, let group?):
                let renamed = try EditGroup(context: app)(group.name, EditGroup.Changes(name: pick(groupNames, &random)! + " \(random.next() % 3)"))
                ledger.events.append("group \(group.name) renamed \(renamed.name) by \(who)")
            case (_, let group?):
                _ = try DeleteGroup(context: app)(group.name)
                ledger.events.append("group \(group.name) removed by \(who)")
            }
        } catch where ErrorCode.of(error) != .storeFailed {
        }
    }

    /// Habits as a failure names them: each field that syncs.
    static func describe(_ habits: Set<Habit>) -> [String] {
        habits.map { "\($0.name) from \($0.startedOn) to \($0.archivedOn?.iso ?? "-") [\($0.unit)] updated \($0.updatedAt.timeIntervalSince1970) r\($0.revisions.count)" }.sorted()
    }

    /// The addresses one server answers at (a home server's LAN address and its public name).
    static let addresses = ["http://lan.test", "http://public.test"]

    /// A device's sync at a random address, cut at a random request one time in four (the answer
    /// lost half the time, and then, one time in two, the device changes what it had just pushed
    /// before it syncs again), then run again whole.
    static func sync(_ device: Device, _ server: LocalServer, _ random: inout SeededGenerator, _ ledger: inout Ledger) async throws {
        let address = pick(addresses, &random)!
        if random.next() % 4 == 0 {
            let lost = random.next() % 2 == 0
            let cut = LocalTransport(server, failAt: 1 + Int(random.next() % 3), losesAnswer: lost)
            do { _ = try await device.client(cut, server: address).sync() } catch is LocalTransport.Cut {}
            ledger.events.append("sync \(device.name) cut\(lost ? ", answer lost" : "")")
            if lost && random.next() % 2 == 0 {
                for _ in 0..<(1 + Int(random.next() % 3)) { try operate(device.app, &random, &ledger, by: device.name) }
            }
        }
        let report = try await device.client(LocalTransport(server), server: pick(addresses, &random)!).sync()
        ledger.events.append("sync \(device.name): pushed \(report.pushed) pulled \(report.pulled)\(report.copied ? " copied" : "")\(report.restored ? " restored" : "")")
    }

    func run(seed: UInt64, restores: Bool, server makeServer: @escaping () throws -> any HabitStore) async throws {
        var random = SeededGenerator(seed: seed)
        let folder = try TemporaryFolder()
        let library = try PolicyLibrary(searchPath: [])
        let server = try LocalServer(library: library, open: makeServer)
        var devices = try (1...3).map { try Device(name: "device\($0)", folder: folder, library: library, clock: ManualClock(evening)) }
        var ledger = Ledger(groups: SeededGenerator(seed: seed &+ 0x9E37_79B9_7F4A_7C15))
        var backup: String? = nil
        for round in 0..<10 {
            for device in devices {
                // Each device's clock goes on a few seconds a round; one time in twelve it runs two days
                // ahead for a while (its syncs are refused while it is wrong), and is put right again.
                device.clock?.advance(by: Double(1 + random.next() % 5))
                // Ahead of the server's own clock (the machine's) by two days.
                let ahead = random.next() % 12 == 0 ? Date().addingTimeInterval(2 * 86_400).timeIntervalSince(device.clock?.now ?? Date()) : 0
                if ahead > 0 { device.clock?.advance(by: ahead) }
                for _ in 0..<Int(random.next() % 7) { try Self.operate(device.app, &random, &ledger, by: device.name) }
                if ahead > 0 {
                    do { _ = try await device.client(LocalTransport(server)).sync() } catch SyncError.invalidChange {}
                    device.clock?.advance(by: -ahead)
                }
            }
            // The server's own writes, as its pages and API make them, go to every device too.
            for _ in 0..<Int(random.next() % 3) { try Self.operate(server.context, &random, &ledger) }
            // A device's store copied with whatever it has not pushed yet (a phone restored onto a
            // new phone while the old one goes on): both go on as devices of their own.
            if devices.count < 5, random.next() % 8 == 0, let original = Self.pick(devices, &random) {
                devices.append(try original.copy(as: "copy\(round)", folder: folder))
                ledger.events.append("copy\(round) of \(original.name)")
            }
            // The server's store saved, and later put back from that save: it lost what came since.
            if restores, round == 3 { backup = try server.backUp(to: folder.path("server-backup.sqlite")); ledger.events.append("server backup") }
            if restores, round == 6, let backup {
                try server.restore(from: backup)
                ledger.events.append("server restored")
                // What only the server held since the backup (no device had pulled it) is lost with
                // it, as nothing can bring it back; everything else must come back.
                var held = Set(try Snapshot(server.context).completions.map(\.id))
                for device in devices { held.formUnion(try Snapshot(device.app).completions.map(\.id)) }
                for record in ledger.made.keys where !held.contains(record) { ledger.made[record] = nil }
            }
            for device in devices.shuffled(using: &random) where random.next() % 3 != 0 {
                do {
                    try await Self.sync(device, server, &random, &ledger)
                } catch {
                    Issue.record("seed \(seed): \(device.name)'s sync failed: \(error)\nEVENTS\n\(ledger.events.joined(separator: "\n"))")
                    return
                }
            }
        }
        // Two rounds, and one more after any round in which a copy took an id of its own: what it
        // pushed under the id it left reaches the others on their next sync.
        var rounds = 0, healed = false
        repeat {
            healed = false
            for device in devices {
                do {
                    if try await device.client(LocalTransport(server)).sync().copied { healed = true }
                } catch {
                    if let only = ProcessInfo.processInfo.environment["STACKDAY_DEBUG_KEY"] {
                        for (name, app) in [("server", server.context)] + devices.map({ ($0.name, $0.app) }) {
                            let log = try app.store.write { tx in try tx.sync!.changes(after: 0, device: "x", scope: .all, limit: 100000) }
                            print("LOG \(name): " + log.changes.filter { $0.key.hasPrefix(only) }.map { "\($0.kind) \($0.key.suffix(3)) \($0.deleted) \($0.stamp.device.prefix(6))" }.joined(separator: "; "))
                        }
                    }
                    Issue.record("seed \(seed): \(device.name)'s last sync failed: \(error)\nEVENTS\n\(ledger.events.joined(separator: "\n"))")
                    return
                }
            }
            rounds += 1
        } while (rounds < 2 || healed) && rounds < 6
        let expected = try Snapshot(server.context)
        let uncached = try Snapshot(context(server.context.store, library, cached: false))
        #expect(expected == uncached, "seed \(seed): the server's figures differ without its cache")
        for device in devices {
            let held = try Snapshot(device.app)
            #expect(held == expected, "seed \(seed): \(device.name) differs from the server: \(held.difference(from: expected))\nEVENTS\n\(ledger.events.joined(separator: "\n"))")
            #expect(try Snapshot(context(device.app.store, library, cached: false)) == expected, "seed \(seed): \(device.name) without its cache")
        }
        let kept = Set(expected.completions.map(\.id))
        for (record, habit) in ledger.made where !ledger.undone.contains(record) && !ledger.deletedHabits.contains(habit) {
            #expect(kept.contains(record), "seed \(seed): record \(record) was made, never deleted, and is missing; \(ledger.events.joined(separator: "\n"))")
        }
        let places = expected.habits.map(\.position).filter { $0 > 0 }
        #expect(Set(places).count == places.count, "seed \(seed): two habits share a place: \(places.sorted())")
        let names = expected.habits.map { Habit.nameKey(for: $0.name) }
        #expect(Set(names).count == names.count, "seed \(seed): two habits share a name: \(names.sorted())")
        let groupNames = expected.groups.map { Habit.nameKey(for: $0.name) }
        #expect(Set(groupNames).count == groupNames.count, "seed \(seed): two groups share a name: \(groupNames.sorted())")
        // Quiet now: a sync moves nothing.
        for device in devices {
            let quiet = try await device.client(LocalTransport(server)).sync()
            #expect(quiet == SyncReport(), "seed \(seed): \(device.name) moved something after convergence: \(quiet)")
        }
    }

    /// The seeds a run tries: eight SQLite and four PostgreSQL ones, or with
    /// `STACKDAY_CONVERGENCE_SEEDS=N` in the environment, N more of each after them (a soak).
    static func seeds(from first: UInt64, count: UInt64) -> [UInt64] {
        if let only = ProcessInfo.processInfo.environment["STACKDAY_CONVERGENCE_ONLY"].flatMap(UInt64.init) { return only / 1000 == 1 + first ? [only] : [] }
        let more = ProcessInfo.processInfo.environment["STACKDAY_CONVERGENCE_SEEDS"].flatMap(UInt64.init) ?? 0
        return Array(first..<(first + count)) + (0..<more).map { 1000 + first * 1000 + $0 }
    }

    @Test("on a SQLite server", arguments: seeds(from: 1, count: 8))
    func sqlite(seed: UInt64) async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("server.sqlite")
        try await run(seed: seed, restores: true) { try SQLiteHabitStore(path: path, owner: "alice") }
    }

    static let postgresGate = AsyncGate(width: 4)

    @Test("on a PostgreSQL server", arguments: seeds(from: 11, count: 4))
    func postgres(seed: UInt64) async throws {
        let url = try syncPostgres.get().url
        let owner = "alice-\(UUID().uuidString)"
        // A few at a time: each case holds several connections to the one test server.
        try await Self.postgresGate.through {
            try await run(seed: seed, restores: false) { try PostgresHabitStore(url: url, owner: owner) }
        }
    }
}
