import Foundation
import Synchronization
import Testing
import StackDay
import StackDayLua
import StackDaySQLite
import StackDayServer
import StackDayTestSupport

/// A device's push of a long history comes in pages; the server computes the pushed habits'
/// figures once, after the last page, not again after each one.
@Suite("a push's figures are prepared after its last page")
struct SyncPushFiguresTests {
    static let clock = FixedClock(Date(timeIntervalSince1970: 1_791_900_000))
    static let utc = DayBoundary(timeZone: TimeZone(secondsFromGMT: 0) ?? .gmt)

    /// A device with a habit and ten days of records: its changes, as its first push sends them.
    static func deviceChanges(in folder: TemporaryFolder) throws -> [SyncChange] {
        let device = HabitContext(store: try SQLiteHabitStore(path: folder.path("device.sqlite")), clock: clock, boundary: utc,
                                  policies: try PolicyLibrary(searchPath: []))
        let today = LocalDay(date: clock.now, timeZone: utc.timeZone)
        try CreateHabit(context: device)(name: "read", startedOn: today.adding(days: -20))
        for offset in 0..<10 { try RecordCompletion(context: device)(habitName: "read", on: today.adding(days: -offset)) }
        return try device.store.write { tx in
            let sync = try #require(tx.sync)
            return try sync.changes(after: 0, device: try sync.start { "phone" }, scope: .own, limit: 100).changes
        }
    }

    @Test("pages marked more leave the cache alone; the last page (or a short one from a device that does not say) fills it",
          arguments: [true, false])
    func lastPage(says: Bool) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("server.sqlite")
        let api = StackDayAPI(clock: Self.clock, makeStore: { try SQLiteHabitStore(path: path) }, makePolicies: { try PolicyLibrary(searchPath: []) },
                              cachesAnswers: true, log: { _ in })
        let owner = try SQLiteHabitStore(path: path, owner: "ana")
        let token = try ManageUsers(context: HabitContext(store: owner, clock: Self.clock, boundary: Self.utc)).add("ana", timeZone: "+00:00").token.text
        let changes = try Self.deviceChanges(in: folder)
        // The habit and its rules first, the records after: two pages.
        let split = try #require(changes.firstIndex { $0.kind == .completion })
        func push(_ page: ArraySlice<SyncChange>, more: Bool?) throws -> Int {
            let request = SyncRequest(device: "phone", since: 0, changes: Array(page), limit: 0, more: more)
            let answer = api.handle(HTTPRequest(method: "POST", path: "/v1/sync", authorization: "Bearer \(token)", contentType: "application/json",
                                                body: request.json.jsonBytes))
            #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
            return try owner.read { tx in try tx.habits.all().compactMap { try tx.evaluations?.evaluation(habitID: $0.id) }.count }
        }
        if says {
            #expect(try push(changes[..<split], more: true) == 0, "a page with more to come prepared figures")
            #expect(try push(changes[split...], more: false) == 1, "the last page left the figures to the first read")
        } else {
            // A device that does not say: a page short of 2,000 ends its push.
            #expect(try push(changes[..<split], more: nil) == 1)
        }
        #expect(try owner.read { tx in try tx.habits.all().map { try tx.completions.completions(habitID: $0.id).count } } == [says ? 10 : 0])
    }

    @Test("a push is written at the worker's priority; reading its pages and its figures run lower, in the background lane")
    func priorities() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("server.sqlite")
        let seen = PriorityRecordingStore.Log()
        let api = StackDayAPI(clock: Self.clock, makeStore: { PriorityRecordingStore(try SQLiteHabitStore(path: path), seen: seen) },
                              makePolicies: { try PolicyLibrary(searchPath: []) }, cachesAnswers: true, log: { _ in })
        let owner = try SQLiteHabitStore(path: path, owner: "ana")
        let token = try ManageUsers(context: HabitContext(store: owner, clock: Self.clock, boundary: Self.utc)).add("ana", timeZone: "+00:00").token.text
        let request = SyncRequest(device: "phone", since: 0, changes: try Self.deviceChanges(in: folder), limit: 0, more: false)
        let worker = PriorityRecordingStore.nice()
        let answer = api.handle(HTTPRequest(method: "POST", path: "/v1/sync", authorization: "Bearer \(token)", contentType: "application/json",
                                            body: request.json.jsonBytes))
        #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
        let (writes, reads) = seen.nices.withLock { $0 }
        // The page's transactions held the store's writer on the worker (this thread), never at
        // the lane's lower priority, where they would keep other users' writes waiting.
        #expect(!writes.isEmpty && writes.allSatisfy { $0 == worker }, "\(writes)")
        // The figures prepared after the last page were read in the lane.
        #expect(reads.contains(worker + 10) || worker + 10 > 19, "\(reads)")
        #expect(try owner.read { tx in try tx.habits.all().map { try tx.completions.completions(habitID: $0.id).count } } == [10])
    }

    @Test("the figures prepared after a push judge only habits whose rules are pinned; one whose rules are not is judged when read")
    func unpinnedLeftToReads() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("server.sqlite")
        let judged = NotingResolver.Log()
        let api = StackDayAPI(clock: Self.clock, makeStore: { try SQLiteHabitStore(path: path) },
                              makePolicies: { NotingResolver(library: try PolicyLibrary(searchPath: []), judged: judged) }, cachesAnswers: true, log: { _ in })
        let owner = try SQLiteHabitStore(path: path, owner: "ana")
        let token = try ManageUsers(context: HabitContext(store: owner, clock: Self.clock, boundary: Self.utc)).add("ana", timeZone: "+00:00").token.text
        // The device's habit, and a copy of it under another id and name whose rules name their
        // policies without pinning them (as a device that keeps no scripts may send them).
        let changes = try Self.deviceChanges(in: folder)
        let unpinned = UUID().uuidString
        let copies = changes.compactMap { change -> SyncChange? in
            switch change.entity {
            case .habit(var habit)?:
                habit.id = unpinned
                habit.name = "walk"
                return SyncChange(.habit(habit), stamp: change.stamp, fieldStamps: change.fieldStamps)
            case .revision(var revision)?:
                revision.habit = unpinned
                revision.rules = revision.rules.map { SyncRevision.Rule(policy: $0.policy, params: $0.params) }
                return SyncChange(.revision(revision), stamp: change.stamp)
            default: return nil
            }
        }
        let request = SyncRequest(device: "phone", since: 0, changes: changes + copies, limit: 0, more: false)
        let answer = api.handle(HTTPRequest(method: "POST", path: "/v1/sync", authorization: "Bearer \(token)", contentType: "application/json",
                                            body: request.json.jsonBytes))
        #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
        let ids = try owner.read { tx in try tx.habits.all().map { ($0.name, $0.id) } }
        let read = try #require(ids.first { $0.0 == "read" }?.1), walk = try #require(UUID(uuidString: unpinned))
        #expect(ids.count == 2)
        #expect(judged.habits.withLock { $0 } == [read], "the push's figures judged \(judged.habits.withLock { $0 })")
        #expect(try owner.read { tx in try tx.evaluations?.evaluation(habitID: read) } != nil)
        // The first read judges the one left, and shows both.
        let today = api.handle(HTTPRequest(method: "GET", path: "/v1/today", authorization: "Bearer \(token)"))
        #expect(today.status == 200)
        #expect(judged.habits.withLock { $0 } == [read, walk])
        let names = try JSONValue(parsing: String(decoding: today.body, as: UTF8.self)).objectValue?["habits"]?.arrayValue?.compactMap {
            $0.objectValue?["name"]?.stringValue
        }
        #expect(names?.sorted() == ["read", "walk"])
    }

    @Test("more is true or false; anything else is refused by name")
    func moreMember() throws {
        let request = try SyncRequest(json: JSONValue(parsing: #"{"device": "phone", "since": 0, "more": true}"#))
        #expect(request.more == true)
        #expect(throws: SyncError.invalidRequest(#"needs "more" to be true or false"#)) {
            try SyncRequest(json: JSONValue(parsing: #"{"device": "phone", "since": 0, "more": 1}"#))
        }
        #expect(SyncRequest(device: "phone", since: 0, changes: [], more: false).json.objectValue?["more"] == .bool(false))
    }
}

/// A store that notes the `nice` of the thread each transaction runs on.
final class PriorityRecordingStore: HabitStore, @unchecked Sendable {
    // Safe: `base` is used by one thread at a time, as every store is; `seen` locks its own.
    let base: any HabitStore
    let seen: Log

    /// The `nice` of each write and read transaction's thread, in order.
    final class Log: Sendable {
        let nices = Mutex<(writes: [Int32], reads: [Int32])>(([], []))
    }

    init(_ base: any HabitStore, seen: Log) {
        self.base = base
        self.seen = seen
    }

    /// The calling thread's `nice` (on Linux a thread's own).
    static func nice() -> Int32 { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }

    var owner: String { base.owner }
    func scoped(to owner: String) throws -> any HabitStore { PriorityRecordingStore(try base.scoped(to: owner), seen: seen) }
    func write<T>(_ body: (any HabitTransaction) throws -> T) throws -> T {
        seen.nices.withLock { $0.writes.append(Self.nice()) }
        return try base.write(body)
    }
    func bulkWrite<T>(_ body: (any HabitTransaction) throws -> T) throws -> T {
        seen.nices.withLock { $0.writes.append(Self.nice()) }
        return try base.bulkWrite(body)
    }
    func read<T>(_ body: (any HabitTransaction) throws -> T) throws -> T {
        seen.nices.withLock { $0.reads.append(Self.nice()) }
        return try base.read(body)
    }
    func prepareForBulkWrite(records: Int) { base.prepareForBulkWrite(records: records) }
    func changeCount() throws -> Int64? { try base.changeCount() }
    func storeIdentity() throws -> String? { try base.storeIdentity() }
    var hasOneWriter: Bool { base.hasOneWriter }
    var writersWaiting: Bool { base.writersWaiting }
    var writersContended: Bool { base.writersContended }
}

/// A policy library that notes each habit whose figures it is asked for, once each, in order.
final class NotingResolver: PolicyResolver, @unchecked Sendable {
    // Safe: `library` is itself safe to share (`PolicyLibrary`); `judged` locks its own.
    let library: PolicyLibrary
    let judged: Log

    final class Log: Sendable {
        let habits = Mutex<[UUID]>([])

        func note(_ habit: UUID) { habits.withLock { if !$0.contains(habit) { $0.append(habit) } } }
    }

    init(library: PolicyLibrary, judged: Log) {
        self.library = library
        self.judged = judged
    }

    func policies(for habit: Habit, revision: HabitRevision, scripts: any PolicyScriptRepository) throws -> HabitPolicies {
        judged.note(habit.id)
        return try library.policies(for: habit, revision: revision, scripts: scripts)
    }
    func evaluate(_ request: EvaluationRequest, scripts: any PolicyScriptRepository) throws -> BatchEvaluation? {
        judged.note(request.habit.id)
        return try library.evaluate(request, scripts: scripts)
    }
    func groupPolicies(for group: HabitGroup, revision: GroupRevision, scripts: any PolicyScriptRepository) throws -> GroupPolicies {
        try library.groupPolicies(for: group, revision: revision, scripts: scripts)
    }
    var evaluationKey: String { library.evaluationKey }
    var runsScripts: Bool { library.runsScripts }
    var retainedBytes: Int { library.retainedBytes }
    func folderScript(named name: String, at now: Date) throws -> (script: PolicyScript, file: String)? { try library.folderScript(named: name, at: now) }
    func folderNames() -> [String] { library.folderNames() }
    func builtInScript(named name: String) -> PolicyScript? { library.builtInScript(named: name) }
    func builtInNames() -> [String] { library.builtInNames() }
    func describe(_ script: PolicyScript) throws -> PolicyListing { try library.describe(script) }
    func vet(_ script: PolicyScript) throws { try library.vet(script) }
    func parameterSchema(for choice: PolicyChoice, scripts: any PolicyScriptRepository) throws -> PolicyParameterSchema? {
        try library.parameterSchema(for: choice, scripts: scripts)
    }
    func tracing<T>(_ body: () throws -> T) throws -> (T, [PolicyTraceLine]) { try library.tracing(body) }
    func evaluationQueue() -> (any EvaluationQueue)? { library.evaluationQueue() }
}
