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
/// habits, revisions, records, skips and scripts, every record made and never deleted is there,
/// and every figure is the same everywhere, read through the cache or without it.
@Suite("sync converges")
struct ConvergenceTests {
    static let names = ["water", "read", "run", "stretch", "Water "]
    static let policies = [StreakScripts.counting, StreakScripts.resetting]

    /// What the test remembers of what devices did.
    struct Ledger {
        var made: [UUID: UUID] = [:]  // record → habit
        var undone: Set<UUID> = []
        var deletedHabits: Set<UUID> = []
    }

    static func pick<T>(_ items: [T], _ random: inout SeededGenerator) -> T? {
        items.isEmpty ? nil : items[Int(random.next() % UInt64(items.count))]
    }

    /// One random operation on a device; a refusal (a name taken, nothing to undo) is fine.
    static func operate(_ app: HabitContext, _ random: inout SeededGenerator, _ ledger: inout Ledger) throws {
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
            case 50..<60:
                guard let habit else { return }
                let record = try CancelCompletion(context: app)(.id(habit.id), on: max(day, habit.startedOn))
                ledger.undone.insert(record.id)
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
            case 86..<90:
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
            default:
                _ = try InstallPolicy(context: app)(name: "mine", source: pick(policies, &random)!)
            }
        } catch where ErrorCode.of(error) != .storeFailed {
            return
        }
    }

    /// Habits as a failure names them: each field that syncs.
    static func describe(_ habits: Set<Habit>) -> [String] {
        habits.map { "\($0.name) from \($0.startedOn) to \($0.archivedOn?.iso ?? "-") [\($0.unit)] updated \($0.updatedAt.timeIntervalSince1970) r\($0.revisions.count)" }.sorted()
    }

    /// A device's sync, cut at a random request one time in four, then run again whole.
    static func sync(_ device: Device, _ server: LocalServer, _ random: inout SeededGenerator) async throws {
        if random.next() % 4 == 0 {
            let cut = LocalTransport(server, failAt: 1 + Int(random.next() % 3), losesAnswer: random.next() % 2 == 0)
            do { _ = try await device.client(cut).sync() } catch is LocalTransport.Cut {}
        }
        _ = try await device.client(LocalTransport(server)).sync()
    }

    func run(seed: UInt64, server makeServer: () throws -> any HabitStore) async throws {
        var random = SeededGenerator(seed: seed)
        let folder = try TemporaryFolder()
        let library = try PolicyLibrary(searchPath: [])
        let server = LocalServer(context(try makeServer(), library))
        let devices = try (1...3).map { try Device(name: "device\($0)", folder: folder, library: library) }
        var ledger = Ledger()
        for _ in 0..<10 {
            for device in devices {
                for _ in 0..<Int(random.next() % 7) { try Self.operate(device.app, &random, &ledger) }
            }
            // The server's own writes, as its pages and API make them, go to every device too.
            for _ in 0..<Int(random.next() % 3) { try Self.operate(server.context, &random, &ledger) }
            for device in devices.shuffled(using: &random) where random.next() % 3 != 0 {
                try await Self.sync(device, server, &random)
            }
        }
        for _ in 0..<2 {
            for device in devices { _ = try await device.client(LocalTransport(server)).sync() }
        }
        let expected = try Snapshot(server.context)
        let uncached = try Snapshot(context(server.context.store, library, cached: false))
        #expect(expected == uncached, "seed \(seed): the server's figures differ without its cache")
        for device in devices {
            let held = try Snapshot(device.app)
            #expect(held == expected, "seed \(seed): \(device.name) holds \(held), the server \(expected); habits only the device holds: \(Self.describe(held.habits.subtracting(expected.habits))), only the server: \(Self.describe(expected.habits.subtracting(held.habits)))")
            #expect(try Snapshot(context(device.app.store, library, cached: false)) == expected, "seed \(seed): \(device.name) without its cache")
        }
        let kept = Set(expected.completions.map(\.id))
        for (record, habit) in ledger.made where !ledger.undone.contains(record) && !ledger.deletedHabits.contains(habit) {
            #expect(kept.contains(record), "seed \(seed): record \(record) was made, never deleted, and is missing")
        }
        let names = expected.habits.map { Habit.nameKey(for: $0.name) }
        #expect(Set(names).count == names.count, "seed \(seed): two habits share a name: \(names.sorted())")
        // Quiet now: a sync moves nothing.
        for device in devices {
            #expect(try await device.client(LocalTransport(server)).sync() == SyncReport(), "seed \(seed): \(device.name) moved something after convergence")
        }
    }

    @Test("on a SQLite server", arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func sqlite(seed: UInt64) async throws {
        let folder = try TemporaryFolder()
        try await run(seed: seed) { try SQLiteHabitStore(path: folder.path("server.sqlite"), owner: "alice") }
    }

    @Test("on a PostgreSQL server", arguments: [UInt64(11), 12, 13, 14])
    func postgres(seed: UInt64) async throws {
        let url = try syncPostgres.get().url
        try await run(seed: seed) { try PostgresHabitStore(url: url, owner: "alice-\(UUID().uuidString)") }
    }
}
