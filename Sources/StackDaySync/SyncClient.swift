import Dispatch
import Foundation
import StackDay

/// Syncs one device store with one server: pushes the device's log a page at a time, then pulls
/// the server's changes a page at a time, each page applied in its own short transaction that
/// also stores how far it got. The app may keep recording meanwhile (on its own connection):
/// a write made during a sync is in the log and goes with the next one.
///
/// Cancelling the task stops it between pages (and abandons a request in flight); a sync that
/// stops for any reason repeats at most one page next time, which changes nothing twice.
public final class SyncClient: @unchecked Sendable {
    // Safe: `store` is touched only by blocks on `queue`, one at a time; the rest is immutable.
    private let queue = DispatchQueue(label: "stackday.sync")
    private let store: any HabitStore
    private let transport: any SyncTransport
    private let server: String
    private let newDevice: Bool

    /// `store` is the device's, used only on the client's own queue from now on: give the client a
    /// connection of its own. `server` names the server (and its user) in the device's positions:
    /// `HTTPSyncTransport.peer` for the HTTP transport. With `newDevice`, the store first takes a
    /// new device id (`SyncRepository.moveDevice`) and pushes everything again under it, telling the
    /// server the id it had: for a copy of a store the server refused (`SyncError.deviceCopied`).
    public init(store: any HabitStore, server: String, transport: any SyncTransport, newDevice: Bool = false) {
        self.store = store
        self.server = server
        self.transport = transport
        self.newDevice = newDevice
    }

    /// Runs `body` with the store on the client's queue, off Swift's cooperative threads (SQLite
    /// and libpq calls block).
    private func withStore<T: Sendable>(_ body: @escaping @Sendable (any HabitStore) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body(self.store) }) }
        }
    }

    private static func log(_ tx: any HabitTransaction) throws -> any SyncRepository {
        guard let sync = tx.sync else { throw SyncError.unsupportedStore }
        return sync
    }

    /// One sync, both ways; `progress` hears after each page.
    public func sync(progress: (@Sendable (SyncProgress) -> Void)? = nil) async throws -> SyncReport {
        let server = self.server, newDevice = self.newDevice
        let (device, previous, start, waiting) = try await withStore { store in
            try store.write { tx in
                let sync = try Self.log(tx)
                var device = try sync.start { UUID().uuidString.lowercased() }
                var previous: String?
                if newDevice {
                    let moved = UUID().uuidString.lowercased()
                    previous = try sync.moveDevice(to: moved)
                    device = moved
                }
                let peer = try sync.peer(server)
                return (device, previous, peer, try sync.pending(after: peer.pushedThrough, device: device))
            }
        }
        func request(_ changes: [SyncChange], limit: Int = SyncRequest.maxChanges, _ peer: SyncPeer) -> SyncRequest {
            SyncRequest(device: device, since: peer.position, changes: changes, limit: limit, history: peer.history, previous: previous)
        }
        var peer = start
        var report = SyncReport()
        var restarted = false
        // A server that lost history (`SyncResponse.reset`) has this device push everything again
        // and pull from the start: once a sync.
        func restart() async throws {
            guard !restarted else { throw SyncError.invalidAnswer("lost its history twice in one sync") }
            restarted = true
            peer.pushedThrough = 0
            peer.position = 0
            peer.history = nil
            let reset = peer
            try await withStore { store in try store.write { tx in try Self.log(tx).setPeer(server, reset) } }
        }
        func read(after position: Int64) async throws -> SyncPage {
            try await withStore { store in
                try store.read { tx in try Self.log(tx).changes(after: position, device: device, mine: true, limit: SyncRequest.maxChanges) }
            }
        }
        // The page after the one in flight, read while the server applies that one. (A write the
        // device makes after it was read is in the log and goes with a later page or sync.)
        var ahead: Task<SyncPage, any Error>?
        defer { ahead?.cancel() }
        push: while true {
            ahead?.cancel()
            ahead = nil
            // Push: the device's own entries, oldest first; the server answers none of its own yet.
            while true {
                try Task.checkCancellation()
                let from = peer.pushedThrough
                let page: SyncPage
                if let next = ahead {
                    page = try await next.value
                    ahead = nil
                } else {
                    page = try await read(after: from)
                }
                if page.more && page.position > from {
                    let next = page.position
                    ahead = Task { try await read(after: next) }
                }
                if page.entries > 0 {
                    let answer = try await transport.send(request(page.changes, limit: 0, peer))
                    if answer.reset {
                        try await restart()
                        continue push
                    }
                    if !answer.refused.isEmpty {
                        let changes = page.changes, refusals = answer.refused
                        report.refused += try await withStore { store in try store.read { tx in try Self.describe(refusals, of: changes, in: tx) } }
                    }
                    report.pushed += page.entries
                    progress?(SyncProgress(phase: .pushing, done: report.pushed, total: max(waiting, report.pushed)))
                    peer.history = answer.history ?? peer.history
                }
                guard page.position > peer.pushedThrough else { break }
                peer.pushedThrough = page.position
                let reached = peer.pushedThrough, history = peer.history
                try await withStore { store in
                    try store.write { tx in
                        let sync = try Self.log(tx)
                        var stored = try sync.peer(server)
                        stored.pushedThrough = reached
                        stored.history = history
                        try sync.setPeer(server, stored)
                    }
                }
                if !page.more { break }
            }
            // Pull: what others made since the last position, each page with the position it reached.
            while true {
                try Task.checkCancellation()
                let response = try await transport.send(request([], peer))
                if response.reset {
                    try await restart()
                    continue push
                }
                for (index, change) in response.changes.enumerated() {
                    do { try SyncRules.check(change, index: index) } catch { throw SyncError.invalidAnswer("has a bad change: \(error)") }
                }
                // A server that says more waits must have moved on, or the pull would never end.
                guard !response.more || response.position > peer.position else {
                    throw SyncError.invalidAnswer("says more changes wait but did not move past position \(peer.position)")
                }
                let changes = response.changes
                let position = response.position
                let history = response.history ?? peer.history
                let decided = try await withStore { store in
                    try store.write { tx in
                        let sync = try Self.log(tx)
                        var stored = try sync.peer(server)
                        // Habits the server renamed itself: their names before, to say what changed.
                        let named = try changes.compactMap { change -> (UUID, String)? in
                            guard change.kind == .habit, change.fieldStamps["name"]?.device == SyncRules.serverDevice,
                                  let id = UUID(uuidString: change.key), let habit = try tx.habits.habit(id: id) else { return nil }
                            return (id, habit.name)
                        }
                        let outcomes = try sync.apply(changes, as: .device(id: device, pushedThrough: stored.pushedThrough))
                        stored.position = position
                        stored.history = history
                        try sync.setPeer(server, stored)
                        let renamed = try named.compactMap { id, before in
                            try tx.habits.habit(id: id).flatMap { $0.name == before ? nil : SyncRename(from: before, to: $0.name) }
                        }
                        return (renamed: renamed, overridden: try Self.overridden(outcomes, device: device, in: tx))
                    }
                }
                report.renamed += decided.renamed
                report.overridden += decided.overridden
                report.pulled += changes.count
                peer.position = position
                peer.history = history
                if !changes.isEmpty { progress?(SyncProgress(phase: .pulling, done: report.pulled, total: nil)) }
                if !response.more { break }
            }
            break
        }
        return report
    }

    /// This device's own habit field changes that `outcomes` replaced with later ones (a name the
    /// server settled or changed itself is a rename, reported as one).
    private static func overridden(_ outcomes: [SyncOutcome], device: String, in tx: any HabitTransaction) throws -> [SyncOverridden] {
        var found: [SyncOverridden] = []
        for case .replaced(let overrides) in outcomes {
            for override in overrides where override.lostBy == device && !(override.field == "name" && override.keptBy == SyncRules.serverDevice) {
                let name = try UUID(uuidString: override.habit).flatMap { try tx.habits.habit(id: $0)?.name } ?? override.habit
                found.append(SyncOverridden(habit: name, field: override.field, mine: SyncDecided.text(override.lost),
                                            kept: SyncDecided.text(override.kept)))
            }
        }
        return found
    }

    /// The server's refusals of `changes` (this device's push), with the habit's name and the day.
    private static func describe(_ refusals: [SyncRefusal], of changes: [SyncChange], in tx: any HabitTransaction) throws -> [SyncRefused] {
        try refusals.map { refusal in
            let change = changes.first { $0.kind == refusal.kind && $0.key == refusal.key }
            let habitID = change.flatMap(SyncRules.habit(of:))
            let name = try habitID.flatMap(UUID.init(uuidString:)).flatMap { try tx.habits.habit(id: $0)?.name } ?? habitID ?? ""
            return SyncRefused(kind: refusal.kind.rawValue, habit: name, day: change.flatMap(SyncRules.day(of:)), code: refusal.code)
        }
    }

    /// `sync()` for a synchronous caller (a command line's main thread): runs it on a task of its
    /// own and waits. Never call it from an async context, whose thread it would hold.
    public func syncWaiting(progress: (@Sendable (SyncProgress) -> Void)? = nil) throws -> SyncReport {
        let done = DispatchSemaphore(value: 0)
        let box = ReportBox()
        Task.detached { [self] in
            do { box.result = .success(try await sync(progress: progress)) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        return try box.result!.get()
    }
}

/// The report a detached sync hands the waiting thread.
private final class ReportBox: @unchecked Sendable {
    // Safe: written once by the task before it signals, read once by the thread after the wait.
    var result: Result<SyncReport, any Error>?
}
