import Foundation
import StackDay
import StackDayLua
import StackDayPostgres
import StackDaySQLite
import StackDaySync
import StackDayTestSupport

let syncPostgres = Result { try PostgresServer() }
let zone = DayBoundary(timeZone: TimeZone(secondsFromGMT: 0)!)
let today = try! LocalDay(iso: "2026-11-30")

/// 20:00 of `today`, where a test's clocks start.
let evening = today.firstInstant(in: zone.timeZone).addingTimeInterval(20 * 3600)

func context(_ store: any HabitStore, _ library: PolicyLibrary, cached: Bool = true, clock: any Clock = FixedClock(evening)) -> HabitContext {
    HabitContext(store: store, clock: clock, boundary: zone, policies: library, usesEvaluationCache: cached)
}

/// `context(_:_:)` where a member named `context` hides it.
func makeContext(_ store: any HabitStore, _ library: PolicyLibrary) -> HabitContext { context(store, library) }

/// A server in the test's process: each request and answer goes through its JSON text, as over
/// the wire.
final class LocalServer: @unchecked Sendable {
    // Safe: every use of `context` (its store) is under `lock`.
    private let lock = NSLock()
    private var opened: HabitContext
    private let open: (() throws -> any HabitStore)?
    private let library: PolicyLibrary?
    private(set) var requests = 0

    /// The server's store as the server's own pages and API use it.
    var context: HabitContext { lock.withLock { opened } }

    /// How many requests the server has answered so far (read from any task).
    var answered: Int { lock.withLock { requests } }

    init(_ context: HabitContext) {
        opened = context
        open = nil
        library = nil
    }

    /// A server over the store `open` makes (again after `restore(from:)`).
    init(library: PolicyLibrary, open: @escaping () throws -> any HabitStore) throws {
        self.open = open
        self.library = library
        opened = makeContext(try open(), library)
    }

    /// A copy of the server's SQLite file at `path` (as a backup takes one); answers `path`.
    func backUp(to path: String) throws -> String {
        try lock.withLock {
            guard let file = (opened.store as? SQLiteHabitStore)?.path else { throw SyncError.unsupportedStore }
            try? FileManager.default.removeItem(atPath: path)
            let result = SQLiteShell.run(file, "VACUUM INTO '\(path)'")
            guard result.isEmpty else { throw SyncError.invalidAnswer("backup failed: \(result)") }
            return path
        }
    }

    /// The server's file put back from `backup`, as an administrator restores one: what came
    /// since is lost.
    func restore(from backup: String) throws {
        try lock.withLock {
            guard let open, let library, let file = (opened.store as? SQLiteHabitStore)?.path else { throw SyncError.unsupportedStore }
            opened = makeContext(InMemoryHabitStore(), library)
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) }
            try FileManager.default.copyItem(atPath: backup, toPath: file)
            opened = makeContext(try open(), library)
        }
    }

    func answer(_ request: SyncRequest) throws -> SyncResponse {
        try lock.withLock {
            let context = opened
            let sent = request.json.jsonBytes
            let parsed = try SyncRequest(json: try JSONValue(parsing: String(decoding: sent, as: UTF8.self)))
            let response = try ServeSync(context: context)(parsed)
            let answer = response.json.jsonBytes
            requests += 1
            return try SyncResponse(json: try JSONValue(parsing: String(decoding: answer, as: UTF8.self)))
        }
    }
}

/// A transport to a `LocalServer` that can fail its `failAt`-th request: before the server sees
/// it, or after the server answered (the answer lost), as a connection cut either way would.
final class LocalTransport: SyncTransport, @unchecked Sendable {
    // Safe: `count` is touched under `lock`.
    struct Cut: Error {}
    let server: LocalServer
    let failAt: Int?
    let losesAnswer: Bool
    private let lock = NSLock()
    private var count = 0

    init(_ server: LocalServer, failAt: Int? = nil, losesAnswer: Bool = false) {
        self.server = server
        self.failAt = failAt
        self.losesAnswer = losesAnswer
    }

    func send(_ request: SyncRequest) async throws -> SyncResponse {
        let index = lock.withLock { count += 1; return count }
        if index == failAt {
            if losesAnswer { _ = try server.answer(request) }
            throw Cut()
        }
        return try server.answer(request)
    }
}

/// A device: its own SQLite file, one connection for the app's writes and one for the client.
/// Its writes are stamped by `clock` (nil: the machine's).
final class Device {
    let name: String
    let path: String
    let app: HabitContext
    let library: PolicyLibrary
    let clock: ManualClock?

    init(name: String, folder: TemporaryFolder, library: PolicyLibrary, clock: ManualClock? = nil) throws {
        self.name = name
        path = folder.path("\(name).sqlite")
        self.library = library
        self.clock = clock
        app = context(try SQLiteHabitStore(path: path, clock: clock), library, clock: clock ?? FixedClock(evening))
    }

    func client(_ transport: any SyncTransport, newDevice: Bool = false, server: String = "http://server.test") throws -> SyncClient {
        SyncClient(store: try SQLiteHabitStore(path: path, clock: clock), server: server, transport: transport, newDevice: newDevice)
    }

    /// Another device made from a copy of this one's file as it is now (with whatever it has not
    /// pushed), with a clock of its own at this one's time.
    func copy(as name: String, folder: TemporaryFolder) throws -> Device {
        let copied = folder.path("\(name).sqlite")
        let result = SQLiteShell.run(path, "VACUUM INTO '\(copied)'")
        guard result.isEmpty else { throw SyncError.invalidAnswer("copy failed: \(result)") }
        return try Device(name: name, folder: folder, library: library, clock: clock.map { ManualClock($0.now) })
    }
}

/// What a store holds, as sets (the order of rows is each replica's own).
struct Snapshot: Equatable, CustomStringConvertible {
    let habits: Set<Habit>
    /// Each habit's name byte for byte (Swift compares strings by canonical equivalence: NFC and
    /// NFD are one string to it), and the list's order.
    let names: [UUID: [UInt8]]
    let order: [UUID]
    let completions: Set<Completion>
    let skips: Set<Skip>
    let scripts: Set<PolicyScript>
    let groups: Set<HabitGroup>
    let stats: [String]

    init(_ context: HabitContext) throws {
        let archive = try ExportArchive(context: context)()
        habits = Set(archive.habits)
        names = Dictionary(uniqueKeysWithValues: archive.habits.map { ($0.id, Array($0.name.utf8)) })
        order = try ListHabits(context: context)(includeArchived: true).map(\.id)
        completions = Set(archive.completions)
        skips = Set(archive.skips)
        scripts = Set(archive.scripts)
        groups = Set(archive.groups)
        stats = try SummarizeHabits(context: context)().map { result in
            switch result {
            case .success(let summary): "\(summary.habit.id) \(summary.statistics) r\(summary.revision.number)"
            case .failure(let failure): "failed: \(failure)"
            }
        }.sorted()
    }

    var description: String {
        "\(habits.count) habits (\(habits.map(\.name).sorted())), \(completions.count) records, \(skips.count) skips, \(scripts.count) scripts"
    }

    /// What differs from `other`, part by part, for a failure to name.
    func difference(from other: Snapshot) -> String {
        var parts: [String] = []
        let mine = habits.subtracting(other.habits), theirs = other.habits.subtracting(habits)
        if !mine.isEmpty || !theirs.isEmpty {
            func show(_ set: Set<Habit>) -> String {
                set.map { "\($0.id.uuidString.prefix(8)) \($0.name) p\($0.position) \($0.startedOn)…\($0.archivedOn?.iso ?? "-") [\($0.unit)] r\($0.revisions.map { "\($0.number)@\($0.effectiveFrom)g\($0.goal)\($0.streak.name)" })" }
                    .sorted().joined(separator: "; ")
            }
            parts.append("habits here: \(show(mine)) / there: \(show(theirs))")
        }
        if names != other.names { parts.append("name bytes differ for \(names.filter { other.names[$0.key] != $0.value }.map { "\($0.key.uuidString.prefix(8))" })") }
        if order != other.order { parts.append("order \(order.map { $0.uuidString.prefix(4) }) / \(other.order.map { $0.uuidString.prefix(4) })") }
        let records = completions.symmetricDifference(other.completions)
        if !records.isEmpty { parts.append("records only here: \(completions.subtracting(other.completions).count), only there: \(other.completions.subtracting(completions).count)") }
        if skips != other.skips { parts.append("skips only here: \(skips.subtracting(other.skips).map(\.day)), only there: \(other.skips.subtracting(skips).map(\.day))") }
        if scripts != other.scripts {
            func show(_ set: Set<PolicyScript>) -> String {
                set.map { "\($0.name)@\($0.shortHash) \($0.installed ? "installed" : "stored") \($0.installedAt.timeIntervalSince1970)" }.sorted().joined(separator: ", ")
            }
            parts.append("scripts here: \(show(scripts.subtracting(other.scripts))) / there: \(show(other.scripts.subtracting(scripts)))")
        }
        if groups != other.groups {
            func show(_ set: Set<HabitGroup>) -> String {
                set.map { "\($0.name) \($0.revisions.map { "\($0.number)@\($0.effectiveFrom) \($0.members.count) \($0.rule.name)" })" }.sorted().joined(separator: "; ")
            }
            parts.append("groups here: \(show(groups.subtracting(other.groups))) / there: \(show(other.groups.subtracting(groups)))")
        }
        if stats != other.stats { parts.append("stats differ") }
        return parts.joined(separator: " | ")
    }
}

/// A server for alice (a SQLite file) and two devices `a` and `b`, in one temporary folder, all
/// stamping their writes by one `clock` that a test moves to order events.
struct World {
    let folder: TemporaryFolder
    let library: PolicyLibrary
    let clock = ManualClock(evening)
    let serverPath: String
    let server: LocalServer
    let a: Device
    let b: Device

    init() throws {
        folder = try TemporaryFolder()
        library = try PolicyLibrary(searchPath: [])
        serverPath = folder.path("server.sqlite")
        server = LocalServer(context(try SQLiteHabitStore(path: serverPath, owner: "alice", clock: clock), library, clock: clock))
        a = try Device(name: "a", folder: folder, library: library, clock: clock)
        b = try Device(name: "b", folder: folder, library: library, clock: clock)
    }

    /// Moves every replica's clock on a second: what is made after is later, whatever the machine.
    func later() {
        clock.advance(by: 1)
    }

    @discardableResult
    func sync(_ device: Device) async throws -> SyncReport { try await device.client(LocalTransport(server)).sync() }

    /// Each device syncs with the server, in turn.
    func syncEach(_ devices: Device...) async throws {
        for device in devices { try await sync(device) }
    }

    /// Every replica's snapshot, the server's first.
    func snapshots() throws -> [Snapshot] { try [Snapshot(server.context), Snapshot(a.app), Snapshot(b.app)] }

    /// A habit `read` created on `a`, synced to the server and to `b`.
    func shared(startedOn start: LocalDay = today.adding(days: -5)) async throws {
        try CreateHabit(context: a.app)(name: "read", startedOn: start)
        try await sync(a)
        try await sync(b)
    }

    /// New rules for `read` from `day` on both devices, offline: goal 2 on `a`, goal 3 on `b`.
    func sameDayRuleEdits(from day: LocalDay) throws {
        for (device, goal) in [(a, 2.0), (b, 3.0)] {
            var changes = HabitChanges(rulesFrom: .day(day))
            changes.goal = goal
            _ = try EditHabit(context: device.app)(habitName: "read", changes: changes)
        }
    }

    /// `b`, then `a`, then `b` again: each sees what the other did.
    func exchange() async throws {
        try await syncEach(b, a, b)
    }
}

/// A transport to a `LocalServer` that runs `afterPush` once, when the first push's answer is in
/// and before the sync pulls: what a person does on the device while its sync waits.
final class PausingTransport: SyncTransport, @unchecked Sendable {
    // Safe: `done` is touched under `lock`; `afterPush` runs once, on the one sync's task, while
    // the test that made it awaits that sync.
    let server: LocalServer
    let afterPush: () throws -> Void
    private let lock = NSLock()
    private var done = false

    init(_ server: LocalServer, afterPush: @escaping () throws -> Void) {
        self.server = server
        self.afterPush = afterPush
    }

    func send(_ request: SyncRequest) async throws -> SyncResponse {
        let answer = try server.answer(request)
        let first = lock.withLock { () -> Bool in
            guard !done, !request.changes.isEmpty else { return false }
            done = true
            return true
        }
        if first { try afterPush() }
        return answer
    }
}

/// A store that says whether another write waits (`waiting`), and counts its write transactions.
final class CountingStore: HabitStore {
    let base: any HabitStore
    let waiting: Bool
    private(set) var writes = 0

    init(_ base: any HabitStore, waiting: Bool) {
        self.base = base
        self.waiting = waiting
    }

    var owner: String { base.owner }
    func scoped(to owner: String) throws -> any HabitStore { try base.scoped(to: owner) }
    func write<T>(_ body: (any HabitTransaction) throws -> T) throws -> T {
        writes += 1
        return try base.write(body)
    }
    func read<T>(_ body: (any HabitTransaction) throws -> T) throws -> T { try base.read(body) }
    var hasOneWriter: Bool { true }
    var writersWaiting: Bool { waiting }
}
