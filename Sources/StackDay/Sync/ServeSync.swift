import Foundation

/// What a server does with one `POST /v1/sync`: it takes the device's changes (all checked before
/// any is written; a page of records alone in slices on a store with one writer, anything else in
/// one write transaction), settles habit names, and answers its own changes after the request's
/// position that the device did not make.
///
/// A repeated request changes nothing the first did not: a device's own changes are known by
/// their places in its log, and taken once; changes carry state and stamps besides. A device
/// whose answer was lost sends it again, whatever it changed since.
public struct ServeSync {
    let context: HabitContext
    /// How long one write transaction of a push may go on applying slices when no other write
    /// waits (`transactionNanoseconds` unless a test needs another).
    let transactionBound: UInt64

    public init(context: HabitContext, transactionBound: UInt64 = ServeSync.transactionNanoseconds) {
        self.context = context
        self.transactionBound = transactionBound
    }

    public func callAsFunction(_ request: SyncRequest) throws -> SyncResponse {
        for (index, change) in request.changes.enumerated() {
            try SyncRules.check(change, index: index)
        }
        // The time the push is judged and written at: the context's, or the store's stamping
        // clock when that one is later (it stamps every write, so a pushed stamp is bounded by it).
        var now = context.clock.now
        let changes = request.changes
        let store = try context.store.storeIdentity()
        var outcomes = [SyncOutcome](repeating: .kept, count: changes.count)
        var slices: [[Int]] = []
        var identity: SyncServerIdentity?
        var lost = false
        var number = 0
        while true {
            // Where the next transaction starts; `number` moves past what one commits, only once it has.
            let (response, reached) = try context.store.bulkWrite { tx -> (SyncResponse?, Int) in
                var number = number
                guard let sync = tx.sync else { throw SyncError.unsupportedStore }
                if number == 0 {
                    now = max(now, SyncStamp.date(of: sync.currentTime()))
                    for (index, change) in changes.enumerated() {
                        try SyncRules.checkTime(change, index: index, now: now)
                    }
                    _ = try sync.start { SyncRules.serverDevice }
                    var current = try sync.identity(store: store)
                    // A position past the log's end is a server that lost history: a new epoch, so
                    // that every device pushes all it holds again.
                    // So is a position whose mark is not the one the device was given: the store was put
                    // back from a backup and its log went on past the place again.
                    let end = try sync.position()
                    let kept = request.since > 0 && request.mark != nil ? try sync.mark(at: request.since, make: false) : request.mark
                    lost = request.since > end || kept != request.mark
                    if lost { current = try sync.newEpoch() }
                    identity = current
                    // Changes pushed under another epoch (or to a server that just lost history) are
                    // not taken: the device starts over, everything it holds, under this one.
                    if !changes.isEmpty, lost || (request.epoch.map { $0 != current.epoch } ?? false) {
                        return (SyncResponse(changes: [], position: 0, more: true, accepted: 0, reset: true, compact: request.compact,
                                             server: current, now: max(SyncStamp.time(at: now), try sync.hybridTime())), 0)
                    }
                    // A store that left an id: what came under it reaches the store that keeps it.
                    if let previous = request.previous { _ = try sync.retire(device: previous, for: request.device) }
                    // A store that has written less than was taken from its device id is a copy of the
                    // one that wrote it, or a backup of it put back.
                    if let written = request.written, let taken = try sync.lastReceived(from: request.device), taken > written {
                        throw SyncError.deviceCopied(device: request.device)
                    }
                    // The device's own changes are known by the numbers of the writes that made them:
                    // one taken before is not taken again, and another under a number taken is a copy.
                    let taken = try Self.known(changes, from: request.device, in: sync)
                    for index in taken { outcomes[index] = .kept }
                    slices = (context.store.hasOneWriter ? try Self.slices(of: changes, in: tx, sync) : [Array(changes.indices)])
                        .map { $0.filter { !taken.contains($0) } }.filter { !$0.isEmpty }
                    if slices.isEmpty { slices = [[]] }
                }
                // Slices one after another while no other write waits and the transaction is young;
                // then it commits, and the next transaction goes on from there.
                let began = DispatchTime.now().uptimeNanoseconds
                repeat {
                    // While no other write waits, the slices that follow go along in one batch (up to
                    // `sliceGroup` of them): a slice is where a waiting write gets in, not a batch's size.
                    // On a writer others had to wait for lately, a batch is one slice: a write that
                    // comes then waits for ten records, not a hundred.
                    var slice = slices[number]
                    var taken = 1
                    let group = context.store.writersContended ? 1 : Self.sliceGroup
                    while number + taken < slices.count, taken < group, !context.store.writersWaiting {
                        slice += slices[number + taken]
                        taken += 1
                    }
                    let batch = slice.map { changes[$0] }
                    do {
                        for (index, outcome) in zip(slice, try sync.apply(batch, as: .server)) { outcomes[index] = outcome }
                    } catch SyncError.invalidChange(let index, let reason) {
                        throw SyncError.invalidChange(index: slice.indices.contains(index) ? slice[index] : index, reason: reason)
                    }
                    try sync.receive(Self.fingerprints(batch, from: request.device), from: request.device)
                    number += taken
                } while number < slices.count && !context.store.writersWaiting
                    && DispatchTime.now().uptimeNanoseconds - began < transactionBound
                guard number == slices.count else { return (nil, number) }
                let accepted = outcomes.filter { $0 != .kept }.count
                // Records and skips of a habit deleted here: answered to the device, and kept for the settings page.
                let dropped = zip(changes, outcomes).filter { $0.1 == .dropped }.map(\.0)
                let refused = dropped.map { SyncRefusal(kind: $0.kind, key: $0.key, code: SyncRefusal.habitDeleted) }
                var decided = SyncDecided(device: request.device, at: now, overridden: try Self.overridden(changes, in: tx))
                decided.refused = dropped.map {
                    SyncDecided.Refused(kind: $0.kind.rawValue, habit: "", day: $0.entity?.day?.iso, code: SyncRefusal.habitDeleted)
                }
                // Names and places are settled when a push changed a habit or a group: records and
                // skips (a first sync's pages, nearly all) can make no two alike.
                let named = zip(changes, outcomes).contains { $0.1 != .kept && ($0.0.kind == .habit || $0.0.kind == .group) }
                if accepted > 0, named {
                    decided.renamed = try sync.settleNames()
                    for (habit, position) in HabitOrder.settled(try tx.habits.all()) {
                        try tx.habits.update(try habit.with(position: position, updatedAt: now))
                    }
                }
                if !decided.isEmpty { try sync.keepDecided(decided) }
                // A device starting over (this server lost history) gets its own changes back too: a copy
                // of it that a restore hid from `written` may lack what the other copy made under its id.
                // A page as large as the device asks, within the user's limit (`sync-page`).
                let pageLimit = max(1, min(request.limit, try context.limits(in: tx)[.syncPage]))
                let page = try sync.changes(after: lost ? 0 : request.since, device: request.device,
                                            scope: lost || request.full ? .all : .others, limit: request.limit == 0 ? 0 : pageLimit)
                let mark = page.position > 0 ? try sync.mark(at: page.position, make: true) : nil
                return (SyncResponse(changes: page.changes, position: page.position, more: page.more, accepted: accepted, reset: lost, refused: refused,
                                     compact: request.compact, server: identity, now: max(SyncStamp.time(at: now), try sync.hybridTime()),
                                     mark: mark), number)
            }
            if let response { return response }
            number = reached
        }
    }

    /// The indices of `changes` that `device` pushed before (its own, known by their places in its
    /// log, with the fingerprint kept for each place). Throws `SyncError.deviceCopied` for a change
    /// at a place where the server took another: a copy of the store pushing under the same id.
    static func known(_ changes: [SyncChange], from device: String, in sync: any SyncRepository) throws -> Set<Int> {
        let own = changes.indices.filter { changes[$0].stamp.device == device && changes[$0].seq != nil }
        guard !own.isEmpty else { return [] }
        let kept = try sync.received(from: device, at: own.compactMap { changes[$0].seq })
        var known = Set<Int>()
        for index in own {
            guard let seq = changes[index].seq, let fingerprint = kept[seq] else { continue }
            guard fingerprint == changes[index].fingerprint else { throw SyncError.deviceCopied(device: device) }
            known.insert(index)
        }
        return known
    }

    /// What to keep of a device's own changes taken: each one's fingerprint by its place.
    static func fingerprints(_ changes: [SyncChange], from device: String) -> [Int64: Int64] {
        var kept: [Int64: Int64] = [:]
        for change in changes where change.stamp.device == device {
            if let seq = change.seq { kept[seq] = change.fingerprint }
        }
        return kept
    }

    /// The pushed habit field changes that the merge did not keep: each field a change stamped
    /// whose habit now holds another value (set later elsewhere).
    static func overridden(_ changes: [SyncChange], in tx: any HabitTransaction) throws -> [SyncDecided.Overridden] {
        var found: [SyncDecided.Overridden] = []
        for change in changes where change.kind == .habit {
            guard case .habit(let pushed)? = change.entity, !change.fieldStamps.isEmpty, let id = UUID(uuidString: change.key),
                  let habit = try tx.habits.habit(id: id) else { continue }
            let held: [SyncHabitField: JSONValue] = [
                .name: .string(habit.name), .unit: .string(habit.unit), .startedOn: .string(habit.startedOn.iso),
                .archivedOn: habit.archivedOn.map { .string($0.iso) } ?? .null,
            ]
            for field in SyncHabitField.allCases where change.fieldStamps[field] != nil {
                guard let kept = held[field], case let mine = pushed.value(of: field), mine != kept else { continue }
                found.append(SyncDecided.Overridden(habit: habit.name, field: field, mine: field.text(mine), kept: field.text(kept)))
            }
        }
        return found
    }

    /// How many records or skips a push applies before it looks whether another write waits.
    public static let slice = 10

    /// How many slices a push applies as one batch while no other write waits, nor waited lately
    /// (`HabitStore.writersContended`).
    public static let sliceGroup = 10

    /// How long one write transaction of a push may go on applying slices, when no other write
    /// waits: other processes on a SQLite file wait through their busy timeout, not in its queue.
    public static let transactionNanoseconds: UInt64 = 200_000_000

    /// The slices a push is applied in on a store with one writer (`hasOneWriter`), as indices into
    /// `changes`. A page of new records and skips alone, of habits the store holds (or deleted),
    /// goes a slice at a time, and its transaction commits between two slices when another write
    /// waits (or after `transactionNanoseconds`): another user's write then waits for a slice, not
    /// for a page, and no slice can fail on what a later one holds (a repeat of the page after a
    /// failure in between changes nothing twice). Anything else is one slice, refused whole.
    public static func slices(of changes: [SyncChange], in tx: any HabitTransaction, _ sync: any SyncRepository) throws -> [[Int]] {
        let whole = [Array(changes.indices)]
        guard changes.count > slice, changes.allSatisfy({ ($0.kind == .completion || $0.kind == .skip) && !$0.deleted }) else { return whole }
        let habits = Set(changes.compactMap(\.habit))
        let deleted = try sync.deletedKeys(.habit)
        for habit in habits where !deleted.contains(habit) {
            guard let id = UUID(uuidString: habit), try tx.habits.habit(id: id) != nil else { return whole }
        }
        return stride(from: 0, to: changes.count, by: slice).map { Array($0..<min(changes.count, $0 + slice)) }
    }
}
