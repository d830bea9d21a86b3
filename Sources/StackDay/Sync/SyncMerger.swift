import Foundation

/// How a replica merges a change from elsewhere into what it holds (docs/sync.md, "Conflicts"):
/// the decision only, made from what `SyncMergeState` says is held; a store's repository reads
/// that state and carries the `SyncDecision` out.
///
/// - A tombstone wins over every copy, older or newer; a tombstone arriving deletes the row.
/// - Records, skips and scripts are written once under their id; a record or skip held is
///   replaced only by a later stamp. One of a habit the replica deleted is dropped.
/// - A habit's fields are each last-writer-wins by their own stamp (`mergeHabit`).
/// - Revisions are append-only: the server keeps the number it first saw for rules; other rules
///   pushed under that number get the next free one, and a device adopts the server's numbering.
public enum SyncMerger {
    /// The decision for `change` as `replica`, given what `state` holds. Throws
    /// `SyncError.invalidChange` (index 0: the caller names the change) for a change no replica
    /// could hold: a child of a habit never held, a revision naming a script never held or
    /// leaving a gap in its habit's numbers.
    public static func decide(_ change: SyncChange, in state: some SyncMergeState, as replica: SyncReplica) throws -> SyncDecision {
        func refuse(_ reason: String) -> SyncError { .invalidChange(index: 0, reason: reason) }
        let local = try state.entry(change.kind, change.key)
        if local?.deleted == true { return .keep }
        guard let incoming = change.fields else { return .delete }
        if let habit = SyncRules.habit(of: change), change.kind != .habit, try !state.holdsHabit(habit) {
            if try state.entry(.habit, habit)?.deleted == true { return .drop }
            throw refuse("is a \(change.kind.rawValue) of habit \(habit), which neither this change nor the store holds")
        }
        // Every row a store holds is in its log: without an entry there is no row.
        let held = local == nil ? nil : try state.row(change.kind, change.key)
        switch change.kind {
        case .script:
            guard let held else { return .insert(incoming) }
            let merged = mergeScript(held: held, incoming: incoming)
            return merged == held ? .keep : .joinScript(row: merged, own: merged != incoming)
        case .habit:
            guard let held else { return .insert(incoming) }
            let heldStamps = try state.fieldStamps(habit: change.key)
            let merged = mergeHabit(held: held, heldStamps: heldStamps, incoming: incoming, incomingStamps: change.fieldStamps)
            guard merged.row != held else {
                if merged.stamps == heldStamps { return .keep }
                // The sender's newer stamps name values held here already. When the sender holds
                // every field as here, the row goes on as its write; when it holds an older value
                // of another field, the row is this replica's own write, so that it goes back to
                // the sender too (attributed to the sender, the sender would never be sent it).
                guard held == incoming else { return .mergeHabit(row: held, stamps: merged.stamps, own: true, overrides: []) }
                return .restampHabit(row: held, stamps: merged.stamps)
            }
            let overrides = SyncRules.habitFields.filter { $0 != "updated_at" && merged.row[$0] != held[$0] }.map { field in
                SyncOverride(habit: change.key, field: field, lost: held[field] ?? .null, lostBy: heldStamps[field]?.device ?? "",
                             kept: merged.row[field] ?? .null, keptBy: merged.stamps[field]?.device ?? "")
            }
            return .mergeHabit(row: merged.row, stamps: merged.stamps, own: merged.row != incoming, overrides: overrides)
        case .completion, .skip:
            guard let held else { return .insert(incoming) }
            guard let local, local.stamp < change.stamp, held != incoming else { return .keep }
            return .update(incoming)
        case .revision:
            for role in PolicyRole.habitRoles {
                if let hash = incoming[role.rawValue + "_sha256"]?.stringValue, try state.row(.script, hash) == nil {
                    throw refuse("is a revision naming script \(hash), which neither this change nor the store holds")
                }
            }
            let habit = incoming["habit_id"]?.stringValue ?? ""
            let number = Int64(incoming["number"]?.numberValue ?? 0)
            let top = try state.topRevision(habit: habit)
            guard let held else {
                guard number == top + 1 else {
                    throw refuse("is revision \(number) of a habit whose last is \(top): revisions are numbered without gaps")
                }
                return .insert(incoming)
            }
            return try mergeRevision(incoming, held: held, local: local, habit: habit, number: number, next: top + 1, in: state, as: replica)
        }
    }

    /// Two revisions under one number: the same rules (a pin filled in on one side) are one;
    /// other rules are kept under the next free number, where the server's numbering says.
    private static func mergeRevision(_ incoming: [String: JSONValue], held: [String: JSONValue], local: SyncLogEntry?, habit: String, number: Int64,
                                      next: Int64, in state: some SyncMergeState, as replica: SyncReplica) throws -> SyncDecision {
        if sameRules(incoming, held) {
            let filled = pins.filter { held[$0] == .null && incoming[$0] != .null }
            guard !filled.isEmpty else { return .keep }
            var pinned = held
            for name in filled { pinned[name] = incoming[name] }
            return .update(pinned)
        }
        switch replica {
        case .server:
            // Rules the server already moved to a later number, pushed again (the device never got
            // the answer that told it): the same change, kept once.
            if number + 1 < next {
                for later in (number + 1)..<next {
                    if let existing = try state.row(.revision, SyncRules.revisionKey(habit: habit, number: later)), sameRules(incoming, existing) {
                        return .keep
                    }
                }
            }
            var moved = incoming
            moved["number"] = .number(Double(next))
            return .renumber(row: moved, to: next)
        case .device(let id, let pushedThrough):
            // Rules of this device's own that the server has not seen yet go on, each one number
            // up, in the order they were made: the server's take their place in its numbering.
            func ownUnpushed(_ entry: SyncLogEntry?) -> Bool { entry.map { $0.stamp.device == id && $0.seq > pushedThrough } ?? false }
            guard ownUnpushed(local) else { return .replaceRevision(row: incoming, moved: []) }
            var moved: [[String: JSONValue]] = []
            for later in number..<next {
                let key = SyncRules.revisionKey(habit: habit, number: later)
                if later > number, !ownUnpushed(try state.entry(.revision, key)) { break }
                guard let row = later == number ? held : try state.row(.revision, key) else { break }
                var shifted = row
                shifted["number"] = .number(Double(later + 1))
                moved.append(shifted)
            }
            return .replaceRevision(row: incoming, moved: moved)
        }
    }

    /// A script held and the same script from elsewhere: its text never differs. It is installed
    /// when either side installed it, at the later of their install times; stored on both sides
    /// (pinned by a habit, not installed), at the earlier of the times each stored it. A join:
    /// every replica settles on the same row whatever order they merge in.
    public static func mergeScript(held: [String: JSONValue], incoming: [String: JSONValue]) -> [String: JSONValue] {
        func rank(_ row: [String: JSONValue]) -> (Double, Double) {
            let time = row["installed_at"]?.numberValue ?? 0
            return row["installed"]?.numberValue == 1 ? (1, time) : (0, -time)
        }
        guard rank(incoming) > rank(held) else { return held }
        var merged = held
        merged["installed"] = incoming["installed"] ?? .number(0)
        merged["installed_at"] = incoming["installed_at"] ?? held["installed_at"] ?? .null
        return merged
    }

    /// A revision's script pins, one per role.
    private static let pins = PolicyRole.habitRoles.map { $0.rawValue + "_sha256" }

    /// Whether two revisions hold the same rules: every field equal but the number, a script pin
    /// left empty on one side counting as equal (it is filled in when the script arrives). A
    /// revision's `created_at` is the instant its edit was made, so two edits are never the same.
    public static func sameRules(_ a: [String: JSONValue], _ b: [String: JSONValue]) -> Bool {
        a.allSatisfy { name, value in
            if name == "number" { return true }
            return pins.contains(name) ? (value == .null || b[name] == .null || value == b[name]) : b[name] == value
        }
    }

    /// A habit as two replicas hold it merged field by field: each of `SyncRules.habitFields` from
    /// the side whose stamp for it is greater (a field never changed since the habit was made has
    /// none, which every stamp beats), the rest as held; the start and archive days as one pair
    /// when they would clash. Answers the row and the stamps it keeps.
    public static func mergeHabit(held: [String: JSONValue], heldStamps: [String: SyncStamp],
                                  incoming: [String: JSONValue], incomingStamps: [String: SyncStamp]) -> (row: [String: JSONValue], stamps: [String: SyncStamp]) {
        var row = held
        var stamps = heldStamps
        let none = SyncStamp(hlc: -1, device: "")
        for field in SyncRules.habitFields {
            let theirs = incomingStamps[field] ?? none
            if theirs > (heldStamps[field] ?? none) {
                row[field] = incoming[field] ?? .null
                stamps[field] = theirs
            }
        }
        // A start moved on one side and an archive on the other can merge into a habit archived
        // before it starts, which no replica may hold. Then the two dates are one pair: both come
        // from the side whose latest change to either is the later, and both take that stamp, so
        // every replica settles on the same dates whichever side it held.
        if case .string(let archived)? = row["archived_on"], case .string(let started)? = row["started_on"], archived < started {
            let heldLatest = max(heldStamps["started_on"] ?? none, heldStamps["archived_on"] ?? none)
            let incomingLatest = max(incomingStamps["started_on"] ?? none, incomingStamps["archived_on"] ?? none)
            let source = incomingLatest > heldLatest ? incoming : held
            row["started_on"] = source["started_on"] ?? .null
            row["archived_on"] = source["archived_on"] ?? .null
            stamps["started_on"] = max(heldLatest, incomingLatest)
            stamps["archived_on"] = max(heldLatest, incomingLatest)
        }
        return (row, stamps)
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
