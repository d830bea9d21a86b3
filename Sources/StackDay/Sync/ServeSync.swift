import Foundation

/// What a server does with one `POST /v1/sync`: it takes the device's changes (all checked before
/// any is written; a page of records alone in slices on a store with one writer, anything else in
/// one write transaction), settles habit names, and answers its own changes after the request's
/// position that the device did not make.
///
/// A repeated request changes nothing the first did not (changes carry state and stamps), so a
/// device whose answer was lost sends it again.
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
        // Stamps are made from the wall clock (the store's hybrid clock), so a pushed stamp is
        // bounded by it too, or by the context's clock when that one is later.
        let now = max(context.clock.now, Date())
        for (index, change) in request.changes.enumerated() {
            try SyncRules.check(change, index: index)
            try SyncRules.checkTime(change, index: index, now: now)
        }
        let changes = request.changes
        var outcomes = [SyncOutcome](repeating: .kept, count: changes.count)
        var slices: [[Int]] = []
        var lost = false
        var history: String?
        var number = 0
        while true {
            // Where the next transaction starts; `number` moves past what one commits, only once it has.
            let (response, reached) = try context.store.write { tx -> (SyncResponse?, Int) in
                var number = number
                guard let sync = tx.sync else { throw SyncError.unsupportedStore }
                if number == 0 {
                    _ = try sync.start { SyncRules.serverDevice }
                    // A position past the log's end is a server that lost history (a store restored
                    // from a backup, or replaced): it answers from the start and tells the device to
                    // push all it holds again, and takes none of this push (its records may name
                    // habits lost too).
                    lost = request.since > (try sync.position())
                    if lost && !changes.isEmpty {
                        return (SyncResponse(changes: [], position: 0, more: true, accepted: 0, reset: true, compact: request.compact), 0)
                    }
                    // A copy of a store syncing under its original's id is told apart by its history.
                    // (A server that lost history knows no token: the device starts over without one.)
                    if !lost {
                        if let previous = request.previous { try sync.retire(previous) }
                        let judged = try SyncHistory.judge(try sync.history(of: request.device), device: request.device, token: request.history,
                                                           first: changes.first.map(SyncHistory.fingerprint)) { UUID().uuidString }
                        if let keep = judged.keep { try sync.keepHistory(keep, of: request.device) }
                        history = judged.answer
                    }
                    slices = context.store.hasOneWriter ? try Self.slices(of: changes, in: tx, sync) : [Array(changes.indices)]
                }
                // Slices one after another while no other write waits and the transaction is young;
                // then it commits, and the next transaction goes on from there.
                let began = DispatchTime.now().uptimeNanoseconds
                repeat {
                    let slice = slices[number]
                    do {
                        for (index, outcome) in zip(slice, try sync.apply(slice.map { changes[$0] }, as: .server)) { outcomes[index] = outcome }
                    } catch SyncError.invalidChange(let index, let reason) {
                        throw SyncError.invalidChange(index: slice.indices.contains(index) ? slice[index] : index, reason: reason)
                    }
                    number += 1
                } while number < slices.count && !context.store.writersWaiting
                    && DispatchTime.now().uptimeNanoseconds - began < transactionBound
                guard number == slices.count else { return (nil, number) }
                let accepted = outcomes.filter { $0 != .kept }.count
                // Records and skips of a habit deleted here: answered to the device, and kept for the settings page.
                let dropped = zip(changes, outcomes).filter { $0.1 == .dropped }.map(\.0)
                let refused = dropped.map { SyncRefusal(kind: $0.kind, key: $0.key, code: SyncRefusal.habitDeleted) }
                var decided = SyncDecided(device: request.device, at: now, overridden: try Self.overridden(changes, in: tx))
                decided.refused = dropped.map {
                    SyncDecided.Refused(kind: $0.kind.rawValue, habit: "", day: SyncRules.day(of: $0), code: SyncRefusal.habitDeleted)
                }
                if accepted > 0 { decided.renamed = try sync.settleNames() }
                if !decided.isEmpty { try sync.keepDecided(decided) }
                let page = try sync.changes(after: lost ? 0 : request.since, device: request.device, mine: false, limit: request.limit)
                return (SyncResponse(changes: page.changes, position: page.position, more: page.more, accepted: accepted, reset: lost, refused: refused,
                                     compact: request.compact, history: history), number)
            }
            if let response { return response }
            number = reached
        }
    }

    /// The pushed habit field changes that the merge did not keep: each field a change stamped
    /// whose habit now holds another value (set later elsewhere).
    static func overridden(_ changes: [SyncChange], in tx: any HabitTransaction) throws -> [SyncDecided.Overridden] {
        var found: [SyncDecided.Overridden] = []
        for change in changes where change.kind == .habit {
            guard let fields = change.fields, !change.fieldStamps.isEmpty, let id = UUID(uuidString: change.key),
                  let habit = try tx.habits.habit(id: id) else { continue }
            let held: [String: JSONValue] = [
                "name": .string(habit.name), "unit": .string(habit.unit), "started_on": .string(habit.startedOn.iso),
                "archived_on": habit.archivedOn.map { .string($0.iso) } ?? .null,
            ]
            for field in SyncRules.habitFields where change.fieldStamps[field] != nil {
                guard let kept = held[field], let mine = fields[field], mine != kept else { continue }
                found.append(SyncDecided.Overridden(habit: habit.name, field: field, mine: SyncDecided.text(mine), kept: SyncDecided.text(kept)))
            }
        }
        return found
    }

    /// How many records or skips a push applies before it looks whether another write waits.
    public static let slice = 10

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
        let habits = Set(changes.compactMap { SyncRules.habit(of: $0) })
        let deleted = try sync.deletedKeys(.habit)
        for habit in habits where !deleted.contains(habit) {
            guard let id = UUID(uuidString: habit), try tx.habits.habit(id: id) != nil else { return whole }
        }
        return stride(from: 0, to: changes.count, by: slice).map { Array($0..<min(changes.count, $0 + slice)) }
    }
}
