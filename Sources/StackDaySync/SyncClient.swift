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
    /// connection of its own. `server` names the server's address (`HTTPSyncTransport.peer` for the
    /// HTTP transport): what the device knew of a server before servers had identities is found
    /// under it; since, a device keys what it knows by the server's id (`SyncServerIdentity`).
    /// With `newDevice`, the store first takes a new device id (`SyncRepository.moveDevice`) and
    /// pushes and pulls everything again under it.
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

    /// One sync, both ways; `progress` hears after each page. A store the server recognises as a
    /// copy of another (`SyncError.deviceCopied`) takes an id of its own and syncs again, once
    /// (`SyncReport.copied`).
    public func sync(progress: (@Sendable (SyncProgress) -> Void)? = nil) async throws -> SyncReport {
        var report = SyncReport()
        do {
            try await sync(into: &report, progress: progress)
        } catch let error where Self.isCopied(error) {
            try await withStore { store in
                try store.write { tx in _ = try Self.log(tx).moveDevice(to: UUID().uuidString.lowercased()) }
            }
            report.copied = true
            try await sync(into: &report, progress: progress)
        }
        return report
    }

    /// Whether `error` is the server recognising this store as a copy.
    static func isCopied(_ error: any Error) -> Bool {
        switch error as? SyncError {
        case .deviceCopied?: true
        case .refused(_, let code, _)?: code == ErrorCode.deviceCopied.rawValue
        default: false
        }
    }

    /// The key a device keeps what it knows of a server under: its id, never its address.
    static func peerKey(_ identity: SyncServerIdentity) -> String { "server:" + identity.id }

    private func sync(into report: inout SyncReport, progress: (@Sendable (SyncProgress) -> Void)?) async throws {
        let address = self.server, newDevice = self.newDevice && !report.copied
        let (device, previous, written) = try await withStore { store in
            try store.write { tx in
                let sync = try Self.log(tx)
                var device = try sync.start { UUID().uuidString.lowercased() }
                var previous: String?
                if newDevice {
                    let moved = UUID().uuidString.lowercased()
                    previous = try sync.moveDevice(to: moved)
                    device = moved
                }
                return (device, previous, try sync.ownWrites())
            }
        }
        // Who answers at this address: its identity and clock (a request that asks nothing).
        // How many writes the device made tells the server whether it took more from this device id
        // than this store ever wrote: then this store is a copy, or a backup put back.
        let hello = try await transport.send(SyncRequest(device: device, since: 0, changes: [], limit: 0, previous: previous, written: written))
        var identity = hello.server
        let key = identity.map(Self.peerKey) ?? address
        let (start, restamped) = try await withStore { store in
            try store.write { tx in
                let sync = try Self.log(tx)
                var peer = try sync.peer(key)
                // What this device knew of the server under its address, before servers had ids.
                if peer == SyncPeer(), key != address { peer = try sync.peer(address) }
                // A clock that ran more than a day ahead of the server's, and is right again now, is
                // brought back to the server's. (One still wrong keeps being refused: fix it first.)
                var restamped = 0
                if let now = hello.now, sync.currentTime() <= now + SyncRules.clockSkew, try sync.hybridTime() > now + SyncRules.clockSkew {
                    restamped = try sync.rebaseClock(to: now, device: device, after: peer.pushedThrough)
                }
                return (peer, restamped)
            }
        }
        report.restamped += restamped
        var peer = start
        // A server whose epoch is new to this device lost what devices hold: it gets everything.
        var full = peer.epoch != nil && identity.map { $0.epoch != peer.epoch } == true
        if full {
            peer.pushedThrough = 0
            peer.position = 0
            peer.mark = nil
            report.restored = true
        }
        let (pushedFrom, scope): (Int64, SyncScope) = (peer.pushedThrough, full ? .all : .own)
        // The push's total, for a listener only: counting a device's own entries reads every entry
        // of its log after the position (a fifth of a second for a first sync of 164,000 changes).
        let waiting = progress == nil ? 0 : try await withStore { store in
            try store.read { tx in try Self.log(tx).pending(after: pushedFrom, device: device, scope: scope) }
        }
        func request(_ changes: [SyncChange], limit: Int = SyncRequest.maxChanges, more: Bool? = nil) -> SyncRequest {
            SyncRequest(device: device, since: peer.position, changes: changes, limit: limit, epoch: identity?.epoch, full: full,
                        previous: previous ?? peer.previous, mark: peer.mark, more: more)
        }
        var restarted = false
        // A server that lost history, or whose epoch moved on during this sync, has this device push
        // everything again and pull from the start: once a sync.
        func restart(_ answer: SyncResponse) async throws {
            guard !restarted else { throw SyncError.invalidAnswer("lost its history twice in one sync") }
            restarted = true
            identity = answer.server ?? identity
            full = true
            report.restored = true
            peer.pushedThrough = 0
            peer.position = 0
            peer.mark = nil
            let reset = peer
            try await withStore { store in try store.write { tx in try Self.log(tx).setPeer(key, reset) } }
        }
        @Sendable func read(after position: Int64, _ scope: SyncScope) async throws -> SyncPage {
            try await withStore { store in
                try store.read { tx in try Self.log(tx).changes(after: position, device: device, scope: scope, limit: SyncRequest.maxChanges) }
            }
        }
        // The page after the one in flight, read while the server applies that one. (A write the
        // device makes after it was read is in the log and goes with a later page or sync.)
        var ahead: Task<SyncPage, any Error>?
        defer { ahead?.cancel() }
        push: while true {
            ahead?.cancel()
            ahead = nil
            // Push: the device's own entries (everything, to a server of a new epoch), oldest first;
            // the server answers none of its own yet.
            while true {
                try Task.checkCancellation()
                let from = peer.pushedThrough
                let page: SyncPage
                if let next = ahead {
                    page = try await next.value
                    ahead = nil
                } else {
                    page = try await read(after: from, full ? .all : .own)
                }
                if page.more && page.position > from {
                    let next = page.position, scope: SyncScope = full ? .all : .own
                    ahead = Task { try await read(after: next, scope) }
                }
                if page.entries > 0 {
                    let answer = try await transport.send(request(page.changes, limit: 0, more: page.more))
                    if answer.reset {
                        try await restart(answer)
                        continue push
                    }
                    if !answer.refused.isEmpty {
                        let changes = page.changes, refusals = answer.refused
                        report.refused += try await withStore { store in try store.read { tx in try Self.describe(refusals, of: changes, in: tx) } }
                    }
                    report.pushed += page.entries
                    progress?(SyncProgress(phase: .pushing, done: report.pushed, total: max(waiting, report.pushed)))
                }
                guard page.position > peer.pushedThrough else { break }
                peer.pushedThrough = page.position
                let reached = peer.pushedThrough
                try await withStore { store in
                    try store.write { tx in
                        let sync = try Self.log(tx)
                        var stored = try sync.peer(key)
                        stored.pushedThrough = reached
                        try sync.setPeer(key, stored)
                    }
                }
                if !page.more { break }
            }
            // Pull: what others made since the last position, each page with the position it reached.
            while true {
                try Task.checkCancellation()
                let response = try await transport.send(request([]))
                if response.reset {
                    try await restart(response)
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
                let position = response.position, mark = response.mark
                // Once everything was pushed and pulled, the device knows the server's epoch.
                let epoch = response.more ? peer.epoch : (response.server ?? identity)?.epoch
                let decided = try await withStore { store in
                    try store.write { tx in
                        let sync = try Self.log(tx)
                        var stored = try sync.peer(key)
                        // Habits the server renamed itself: their names before, to say what changed.
                        let named = try changes.compactMap { change -> (UUID, String)? in
                            guard change.kind == .habit, change.fieldStamps[.name]?.device == SyncRules.serverDevice,
                                  let id = UUID(uuidString: change.key), let habit = try tx.habits.habit(id: id) else { return nil }
                            return (id, habit.name)
                        }
                        let outcomes = try sync.apply(changes, as: .device(id: device, pushedThrough: stored.pushedThrough))
                        stored.position = position
                        stored.mark = mark
                        stored.epoch = epoch
                        // The server was told of the id this store left.
                        if epoch != nil, !response.more { stored.previous = nil }
                        try sync.setPeer(key, stored)
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
                peer.mark = mark
                peer.epoch = epoch
                if !response.more { peer.previous = nil }
                if !changes.isEmpty { progress?(SyncProgress(phase: .pulling, done: report.pulled, total: nil)) }
                if !response.more { break }
            }
            break
        }
    }

    /// This device's own habit field changes that `outcomes` replaced with later ones (a name the
    /// server settled or changed itself is a rename, reported as one).
    private static func overridden(_ outcomes: [SyncOutcome], device: String, in tx: any HabitTransaction) throws -> [SyncOverridden] {
        var found: [SyncOverridden] = []
        for case .replaced(let overrides) in outcomes {
            for override in overrides where override.lostBy == device && !(override.field == .name && override.keptBy == SyncRules.serverDevice) {
                let name = try UUID(uuidString: override.habit).flatMap { try tx.habits.habit(id: $0)?.name } ?? override.habit
                found.append(SyncOverridden(habit: name, field: override.field, mine: override.field.text(override.lost),
                                            kept: override.field.text(override.kept)))
            }
        }
        return found
    }

    /// The server's refusals of `changes` (this device's push), with the habit's name and the day.
    private static func describe(_ refusals: [SyncRefusal], of changes: [SyncChange], in tx: any HabitTransaction) throws -> [SyncRefused] {
        try refusals.map { refusal in
            let change = changes.first { $0.kind == refusal.kind && $0.key == refusal.key }
            let habitID = change?.habit
            let name = try habitID.flatMap(UUID.init(uuidString:)).flatMap { try tx.habits.habit(id: $0)?.name } ?? habitID ?? ""
            return SyncRefused(kind: refusal.kind.rawValue, habit: name, day: change?.entity?.day?.iso, code: refusal.code)
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
