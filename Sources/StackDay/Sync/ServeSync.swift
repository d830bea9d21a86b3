import Foundation

/// What a server does with one `POST /v1/sync`, in one write transaction: it takes the device's
/// changes (all checked before any is written), settles habit names, and answers its own changes
/// after the request's position that the device did not make.
///
/// A repeated request changes nothing the first did not (changes carry state and stamps), so a
/// device whose answer was lost sends it again.
public struct ServeSync {
    let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    public func callAsFunction(_ request: SyncRequest) throws -> SyncResponse {
        // Stamps are made from the wall clock (the store's hybrid clock), so a pushed stamp is
        // bounded by it too, or by the context's clock when that one is later.
        let now = max(context.clock.now, Date())
        for (index, change) in request.changes.enumerated() {
            try SyncRules.check(change, index: index)
            try SyncRules.checkTime(change, index: index, now: now)
        }
        return try context.store.write { tx in
            guard let sync = tx.sync else { throw SyncError.unsupportedStore }
            _ = try sync.start { SyncRules.serverDevice }
            // A position past the log's end is a server that lost history (a store restored from a
            // backup, or replaced): it answers from the start and tells the device to push all it
            // holds again, and takes none of this push (its records may name habits lost too).
            let lost = request.since > (try sync.position())
            if lost && !request.changes.isEmpty {
                return SyncResponse(changes: [], position: 0, more: true, accepted: 0, reset: true)
            }
            let outcomes = try sync.apply(request.changes, as: .server)
            let accepted = outcomes.filter { $0 != .kept }.count
            let refused = zip(request.changes, outcomes).compactMap { change, outcome in
                outcome == .dropped ? SyncRefusal(kind: change.kind, key: change.key, code: SyncRefusal.habitDeleted) : nil
            }
            if accepted > 0 { _ = try sync.settleNames() }
            let page = try sync.changes(after: lost ? 0 : request.since, device: request.device, mine: false, limit: request.limit)
            return SyncResponse(changes: page.changes, position: page.position, more: page.more, accepted: accepted, reset: lost, refused: refused)
        }
    }
}
