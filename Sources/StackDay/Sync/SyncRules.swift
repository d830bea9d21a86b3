import Foundation

/// What a change may hold beyond its fields' own rules, and the order a batch is applied in; what
/// each entity carries is its type's (`SyncEntity`), how changes merge `SyncMerger`'s.
public enum SyncRules {
    /// The device a server stamps its own writes with (a rename, a renumbered revision, a write
    /// through the API or the pages).
    public static let serverDevice = "server"
    /// The largest script source sync carries: the same bound as installing one, in bytes.
    public static let scriptLimit = PolicyScript.maximumInstalledBytes

    /// How far ahead of the receiving server's clock a change's hybrid time may be. Device clocks
    /// drift, but a stamp from the far future would win every later merge of its habit and run
    /// every replica's clock ahead with it (a stamp of 2^63 − 1 leaves no later time to write at).
    public static let clockSkewLimit: TimeInterval = 24 * 3600

    /// `clockSkewLimit` as a span of hybrid time.
    public static let clockSkew: Int64 = Int64(clockSkewLimit * 1000) << 16

    /// Throws when a stamp of `change` is more than `clockSkewLimit` ahead of `now`.
    public static func checkTime(_ change: SyncChange, index: Int, now: Date) throws(SyncError) {
        let latest = SyncStamp.time(at: now.addingTimeInterval(clockSkewLimit)) | 0xFFFF
        for stamp in [change.stamp] + Array(change.fieldStamps.values) where stamp.hlc > latest {
            throw .invalidChange(index: index, reason: "has a hybrid time more than a day ahead of the server's clock (\(stamp.hlc)); check the device's clock")
        }
        // A record or skip is of a day that has begun somewhere on Earth (UTC+14 is the furthest
        // ahead), as every other way of writing one requires (`TrackingRules.requireRecordable`).
        if let day = change.entity?.day,
           day > LocalDay(date: now.addingTimeInterval(14 * 3600), timeZone: TimeZone(identifier: "UTC") ?? .current) {
            throw .invalidChange(index: index, reason: "is of \(day.iso), a day that has not begun anywhere yet")
        }
    }

    /// A revision's key (a habit's or a group's: `PARENT/NUMBER`).
    public static func revisionKey(habit: String, number: Int64) -> String { "\(habit)/\(number)" }

    /// A revision key's habit and number; nil for text that is not `HABIT/NUMBER`.
    public static func revision(_ key: String) -> (habit: String, number: Int64)? {
        let parts = key.split(separator: "/")
        guard parts.count == 2, let number = Int64(parts[1]) else { return nil }
        return (String(parts[0]), number)
    }

    /// Checks a change from elsewhere before anything of it is written, beyond what decoding it
    /// checked field by field: a tombstone's key of its kind, a habit's start before its archive,
    /// the entities' own rules, a script's text matching its hash.
    public static func check(_ change: SyncChange, index: Int) throws(SyncError) {
        func fail(_ reason: String) -> SyncError { .invalidChange(index: index, reason: reason) }
        guard let entity = change.entity else {
            guard keyProblem(change.kind, change.key) == nil else { throw fail("has a key that is not a \(change.kind.rawValue)'s") }
            return
        }
        // What a habit, revision or record may hold is what every other way of writing one
        // checks: the entities' own rules, applied as it arrives.
        switch entity {
        case .habit(let habit):
            if let archived = habit.archivedOn, archived < habit.startedOn { throw fail("is a habit archived before it starts") }
            if habit.name.trimmedWhitespace.isEmpty { throw fail("is a habit whose name is blank") }
            do {
                try Habit.checkNewName(habit.name)
                try Habit.checkNewUnit(habit.unit)
            } catch { throw fail("is a habit that is refused: \(error)") }
        case .revision(let revision):
            if !Quantity.isKept(thousandths: Double(revision.goalThousandths)) {
                throw fail("is a revision whose goal is not between 0.001 and \(Int64(Quantity.maximum))")
            }
        case .record(let record):
            if !Quantity.isKept(thousandths: Double(record.amountThousandths)) {
                throw fail("is a record whose amount is not between 0.001 and \(Int64(Quantity.maximum))")
            }
        case .script(let script):
            if script.source.utf8.count > scriptLimit { throw fail("is a script of \(script.source.utf8.count) bytes, over the \(scriptLimit) a script may have") }
            if SHA256(of: Array(script.source.utf8)).description != change.key { throw fail("is a script whose text does not hash to its key") }
        case .group(let group):
            // A group's name follows a habit's rules.
            if group.name.trimmedWhitespace.isEmpty { throw fail("is a group whose name is blank") }
            do { try Habit.checkNewName(group.name) } catch { throw fail("is a group that is refused: \(error)") }
        case .skip, .groupRevision:
            break
        }
    }

    private static func keyProblem(_ kind: SyncKind, _ key: String) -> String? {
        switch kind {
        case .script: PolicyScript.isHash(key) ? nil : "hash"
        case .habit, .completion, .skip: SyncValue.isUUID(key) ? nil : "uuid"
        case .group: SyncValue.isUUID(key) ? nil : "uuid"
        case .revision, .groupRevision: revision(key).map { SyncValue.isUUID($0.habit) && $0.number >= 1 } == true ? nil : "revision"
        }
    }

    /// The order to apply a batch in, as indices into it: live entities parents first (revisions
    /// by number), then deletions children first.
    public static func order(_ changes: [SyncChange]) -> [Int] {
        // A habit's revisions in number order: it holds them as 1, 2, 3, … with no gap.
        func number(_ change: SyncChange) -> Int64 { change.entity?.numbered?.number ?? 0 }
        let live = changes.indices.filter { !changes[$0].deleted }.sorted { a, b in
            (changes[a].kind, number(changes[a]), a) < (changes[b].kind, number(changes[b]), b)
        }
        let gone = changes.indices.filter { changes[$0].deleted }.sorted { a, b in
            changes[a].kind == changes[b].kind ? a < b : changes[b].kind < changes[a].kind
        }
        return live + gone
    }
}
