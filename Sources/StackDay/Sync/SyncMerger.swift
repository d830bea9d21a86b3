import Foundation

/// How a replica merges a change from elsewhere into what it holds (docs/sync.md, "Conflicts"):
/// the decision only, made from what `SyncMergeState` says is held; a store's repository reads
/// that state and carries the `SyncDecision` out.
///
/// - A tombstone wins over every copy, older or newer; a tombstone arriving deletes the row.
/// - Records, skips and scripts are written once under their id; a record or skip held is
///   replaced only by a later stamp. One of a habit the replica deleted is dropped.
/// - A habit's fields are each last-writer-wins by their own stamp (`mergeHabit`).
/// - Revisions (a habit's, a group's) are append-only: the server keeps the number it first saw
///   for rules; other rules pushed under that number get the next free one, and a device adopts
///   the server's numbering.
/// - A group is written whole, the later write winning; its members and rules are its revisions.
public enum SyncMerger {
    /// The decision for `change` as `replica`, given what `state` holds. Throws
    /// `SyncError.invalidChange` (index 0: the caller names the change) for a change no replica
    /// could hold: a child of a habit never held, a revision naming a script never held or
    /// leaving a gap in its habit's numbers.
    public static func decide(_ change: SyncChange, in state: some SyncMergeState, as replica: SyncReplica) throws -> SyncDecision {
        func refuse(_ reason: String) -> SyncError { .invalidChange(index: 0, reason: reason) }
        let local = try state.entry(change.kind, change.key)
        if local?.deleted == true { return .keep }
        guard let incoming = change.entity else { return .delete }
        if let parent = incoming.parent, try !state.holds(parent.kind, parent.key) {
            if try state.entry(parent.kind, parent.key)?.deleted == true { return .drop }
            throw refuse("is a \(change.kind.rawValue) of \(parent.kind.rawValue) \(parent.key), which neither this change nor the store holds")
        }
        if let revision = incoming.numbered {
            for hash in revision.pins where try state.entity(.script, hash) == nil {
                throw refuse("is a revision naming script \(hash), which neither this change nor the store holds")
            }
        }
        // Every entity a store holds is in its log: without an entry there is none.
        let held = local == nil ? nil : try state.entity(change.kind, change.key)
        guard let held else {
            if let revision = incoming.numbered {
                let top = try state.topRevision(change.kind, of: revision.parent)
                guard revision.number == top + 1 else {
                    throw refuse("is revision \(revision.number) of a \(change.kind.parentKind?.rawValue ?? "") whose last is \(top): revisions are numbered without gaps")
                }
            }
            return .insert(incoming)
        }
        switch (held, incoming) {
        case (.script(let mine), .script(let theirs)):
            let joined = mine.joined(with: theirs)
            return joined == mine ? .keep : .joinScript(joined, own: joined != theirs)
        case (.habit(let mine), .habit(let theirs)):
            let heldStamps = try state.fieldStamps(habit: change.key)
            let merged = mergeHabit(held: mine, heldStamps: heldStamps, incoming: theirs, incomingStamps: change.fieldStamps)
            guard merged.habit != mine else {
                if merged.stamps == heldStamps { return .keep }
                // The sender's newer stamps name values held here already. When the sender holds
                // every field as here, the habit goes on as its write; when it holds an older value
                // of another field, the habit is this replica's own write, so that it goes back to
                // the sender too (attributed to the sender, the sender would never be sent it).
                guard mine == theirs else { return .mergeHabit(mine, stamps: merged.stamps, own: true, overrides: []) }
                return .restampHabit(mine, stamps: merged.stamps)
            }
            let overrides = SyncHabitField.allCases.filter { $0 != .updatedAt && merged.habit.value(of: $0) != mine.value(of: $0) }.map { field in
                SyncOverride(habit: change.key, field: field, lost: mine.value(of: field), lostBy: heldStamps[field]?.device ?? "",
                             kept: merged.habit.value(of: field), keptBy: merged.stamps[field]?.device ?? "")
            }
            return .mergeHabit(merged.habit, stamps: merged.stamps, own: merged.habit != theirs, overrides: overrides)
        case (.record, .record), (.skip, .skip):
            guard let local, local.stamp < change.stamp, held != incoming else { return .keep }
            return .update(incoming)
        case (.group, .group):
            // The later write wins whole (a group's members and rules are its revisions'). One that
            // names the name held is still the later write: its stamp is taken, so that an earlier
            // rename arriving after it does not win. Two groups of one name are settled by the
            // server after a push, as habits are (`SyncRepository.settleNames`).
            guard let local, local.stamp < change.stamp else { return .keep }
            return .update(incoming)
        case (.revision(let mine), .revision(let theirs)):
            return try mergeRevision(theirs, held: mine, local: local, in: state, as: replica)
        case (.groupRevision(let mine), .groupRevision(let theirs)):
            return try mergeRevision(theirs, held: mine, local: local, in: state, as: replica)
        default:
            throw refuse("is a \(change.kind.rawValue) whose key the store holds as another kind")
        }
    }

    /// Two revisions under one number: the same rules (a pin filled in on one side) are one;
    /// other rules are kept under the next free number, where the server's numbering says.
    private static func mergeRevision<Revision: SyncNumbered>(_ incoming: Revision, held: Revision, local: SyncLogEntry?,
                                                            in state: some SyncMergeState, as replica: SyncReplica) throws -> SyncDecision {
        let (parent, number) = (incoming.parent, incoming.number)
        if incoming.sameRules(as: held) {
            return held.filling(from: incoming).map { .update($0.entity) } ?? .keep
        }
        let next = try state.topRevision(Revision.kind, of: parent) + 1
        func revision(_ number: Int64) throws -> Revision? {
            try state.entity(Revision.kind, SyncRules.revisionKey(habit: parent, number: number))?.numbered as? Revision
        }
        switch replica {
        case .server:
            // Rules the server already moved to a later number, pushed again (the device never got
            // the answer that told it): the same change, kept once.
            if number + 1 < next {
                for later in (number + 1)..<next {
                    if let existing = try revision(later), incoming.sameRules(as: existing) { return .keep }
                }
            }
            return .renumber(incoming.numbered(next).entity)
        case .device(let id, let pushedThrough):
            // Rules of this device's own that the server has not seen yet go on, each one number
            // up, in the order they were made: the server's take their place in its numbering.
            func ownUnpushed(_ entry: SyncLogEntry?) -> Bool { entry.map { $0.stamp.device == id && $0.seq > pushedThrough } ?? false }
            guard ownUnpushed(local) else { return .replaceRevision(incoming.entity, moved: []) }
            var moved: [SyncEntity] = []
            for later in number..<next {
                if later > number, !ownUnpushed(try state.entry(Revision.kind, SyncRules.revisionKey(habit: parent, number: later))) { break }
                guard let found = later == number ? held : try revision(later) else { break }
                moved.append(found.numbered(later + 1).entity)
            }
            return .replaceRevision(incoming.entity, moved: moved)
        }
    }

    /// A habit as two replicas hold it merged field by field: each of `SyncHabitField` from the
    /// side whose stamp for it is greater (a field never changed since the habit was made has
    /// none, which every stamp beats), the rest as held; the start and archive days as one pair
    /// when they would clash. Answers the habit and the stamps it keeps.
    public static func mergeHabit(held: SyncHabit, heldStamps: [SyncHabitField: SyncStamp],
                                  incoming: SyncHabit, incomingStamps: [SyncHabitField: SyncStamp]) -> (habit: SyncHabit, stamps: [SyncHabitField: SyncStamp]) {
        var habit = held
        var stamps = heldStamps
        let none = SyncStamp(hlc: -1, device: "")
        for field in SyncHabitField.allCases {
            let theirs = incomingStamps[field] ?? none
            if theirs > (heldStamps[field] ?? none) {
                habit.take(field, from: incoming)
                stamps[field] = theirs
            }
        }
        // A start moved on one side and an archive on the other can merge into a habit archived
        // before it starts, which no replica may hold. Then the two dates are one pair: both come
        // from the side whose latest change to either is the later, and both take that stamp, so
        // every replica settles on the same dates whichever side it held.
        if let archived = habit.archivedOn, archived < habit.startedOn {
            let heldLatest = max(heldStamps[.startedOn] ?? none, heldStamps[.archivedOn] ?? none)
            let incomingLatest = max(incomingStamps[.startedOn] ?? none, incomingStamps[.archivedOn] ?? none)
            let source = incomingLatest > heldLatest ? incoming : held
            habit.startedOn = source.startedOn
            habit.archivedOn = source.archivedOn
            stamps[.startedOn] = max(heldLatest, incomingLatest)
            stamps[.archivedOn] = max(heldLatest, incomingLatest)
        }
        return (habit, stamps)
    }

    /// A live habit as name settling sees it.
    public struct NamedHabit: Sendable, Equatable {
        public let id: String
        public let name: String
        public let created: Double

        public init(id: String, name: String, created: Double) {
            self.id = id
            self.name = name
            self.created = created
        }
    }

    /// New names for habits that share one (`Habit.nameKey`): of each group, the one created first
    /// (then the smaller id) keeps it, the others become `NAME (2)`, `NAME (3)`, … skipping names
    /// taken. Linear in the habits: one running suffix per group, each tried once.
    public static func settledNames(_ habits: [NamedHabit]) -> [(id: String, name: String)] {
        var taken = Set(habits.map { Habit.nameKey(for: $0.name) })
        let groups = Dictionary(grouping: habits) { Habit.nameKey(for: $0.name) }
        var renamed: [(id: String, name: String)] = []
        for key in groups.keys.sorted() {
            guard let group = groups[key], group.count > 1 else { continue }
            var suffix = 2
            for habit in group.sorted(by: { ($0.created, $0.id) < ($1.created, $1.id) }).dropFirst() {
                var name: String
                repeat {
                    let tail = " (\(suffix))"
                    name = String(habit.name.trimmingCharacters(in: .whitespaces).prefix(Habit.nameLimit - tail.count)) + tail
                    suffix += 1
                } while taken.contains(Habit.nameKey(for: name))
                taken.insert(Habit.nameKey(for: name))
                renamed.append((habit.id, name))
            }
        }
        return renamed
    }
}
