import Foundation
import Testing
import StackDay

/// A replica's state as a few values: what `SyncMerger` asks, answered without a store.
private struct Held: SyncMergeState {
    var entries: [String: SyncLogEntry] = [:]
    var rows: [String: [String: JSONValue]] = [:]
    var stamps: [String: [SyncHabitField: SyncStamp]] = [:]

    func entry(_ kind: SyncKind, _ key: String) throws -> SyncLogEntry? { entries[kind.rawValue + key] }
    func entity(_ kind: SyncKind, _ key: String) throws -> SyncEntity? { rows[kind.rawValue + key].map { SyncEntity(kind, $0) } }
    func fieldStamps(habit: String) throws -> [SyncHabitField: SyncStamp] { stamps[habit] ?? [:] }

    /// The habit held, typed.
    var habit: SyncHabit {
        guard case .habit(let habit)? = try? entity(.habit, habitID) else { preconditionFailure("no habit held") }
        return habit
    }
    func holds(_ kind: SyncKind, _ key: String) throws -> Bool { rows[kind.rawValue + key] != nil }
    func topRevision(_ kind: SyncKind, of parent: String) throws -> Int64 {
        rows.keys.filter { $0.hasPrefix(kind.rawValue + parent + "/") }.compactMap { Int64($0.split(separator: "/").last ?? "") }.max() ?? 0
    }

    /// Holds `row` of `kind` under `key`, logged at `seq` by `stamp`.
    mutating func hold(_ kind: SyncKind, _ key: String, _ row: [String: JSONValue]?, stamp: SyncStamp = early, seq: Int64 = 1) {
        entries[kind.rawValue + key] = SyncLogEntry(kind: kind, key: key, seq: seq, stamp: stamp, deleted: row == nil)
        rows[kind.rawValue + key] = row
    }
}

private let early = SyncStamp(hlc: 100 << 16, device: "a")
private let late = SyncStamp(hlc: 200 << 16, device: "b")
private let habitID = "0A0A0A0A-0000-4000-8000-000000000001"
private let recordID = "0B0B0B0B-0000-4000-8000-000000000002"
private let hash = String(repeating: "ab", count: 32)

private let habitRow: [String: JSONValue] = [
    "id": .string(habitID), "name": .string("read"), "startedOn": .string("2026-11-01"), "archivedOn": .null,
    "createdAt": .number(1), "updatedAt": .number(1), "unit": .string(""),
]

private func habit(_ changes: [String: JSONValue], stamps: [SyncHabitField: SyncStamp], stamp: SyncStamp = late) -> SyncChange {
    SyncChange(kind: .habit, key: habitID, stamp: stamp, fields: habitRow.merging(changes) { $1 }, fieldStamps: stamps)
}

private func revision(_ number: Int64, goal: Double, pin: String? = nil, created: Double = 5) -> [String: JSONValue] {
    var row: [String: JSONValue] = ["habit": .string(habitID), "number": .number(Double(number)), "effectiveFrom": .string("2026-11-20"),
                                    "goalThousandths": .number(goal * 1000), "createdAt": .number(created)]
    for role in PolicyRole.habitRoles {
        row[role.rawValue + "Policy"] = .string("daily")
        row[role.rawValue + "Params"] = .string("{}")
        row[role.rawValue + "Sha256"] = .null
    }
    if let pin { row["scheduleSha256"] = .string(pin) }
    return row
}

/// `revision`'s row, typed.
private func rules(_ number: Int64, goal: Double, pin: String? = nil, created: Double = 5) -> SyncEntity {
    SyncEntity(.revision, revision(number, goal: goal, pin: pin, created: created))
}

/// A script's row (its text is not checked against its hash by the merge).
private let scriptRow: [String: JSONValue] = ["sha256": .string(hash), "name": .string("mine"), "source": .string("return {}"), "installedAt": .number(1)]

private func record(_ stamp: SyncStamp, amount: Double = 1) -> SyncChange {
    SyncChange(kind: .completion, key: recordID, stamp: stamp, fields: [
        "id": .string(recordID), "habit": .string(habitID), "day": .string("2026-11-25"), "recordedAt": .number(9),
        "amountThousandths": .number(amount * 1000), "note": .null,
    ])
}

/// Every conflict docs/sync.md names, decided by the merge alone: no store, no clock.
@Suite("sync merger")
struct SyncMergerTests {
    /// A replica holding habit `read` (made by `a`, never edited).
    private func holding() -> Held {
        var held = Held()
        held.hold(.habit, habitID, habitRow)
        return held
    }

    @Test("two renames: the later wins wherever it arrives, and the receiver is told what it lost")
    func twoRenames() throws {
        var held = holding()
        held.rows["habit" + habitID]?["name"] = .string("book")
        held.stamps[habitID] = ["name": early]
        let later = try SyncMerger.decide(habit(["name": .string("novel")], stamps: ["name": late]), in: held, as: .server)
        guard case .mergeHabit(let row, let stamps, let own, let overrides) = later else { Issue.record("\(later)"); return }
        #expect(row["name"] == .string("novel") && stamps["name"] == late && !own)
        #expect(overrides == [SyncOverride(habit: habitID, field: "name", lost: .string("book"), lostBy: "a", kept: .string("novel"), keptBy: "b")])
        #expect(later.outcome == .replaced(overrides))

        // The earlier rename arriving where the later is held changes nothing.
        held.rows["habit" + habitID]?["name"] = .string("novel")
        held.stamps[habitID] = ["name": late]
        #expect(try SyncMerger.decide(habit(["name": .string("book")], stamps: ["name": early], stamp: early), in: held, as: .server) == .keep)
    }

    @Test("a rename and an archive made at once both hold; the merged write is the receiver's own")
    func renameAndArchive() throws {
        var held = holding()
        held.rows["habit" + habitID]?["name"] = .string("book")
        held.stamps[habitID] = ["name": early]
        let decision = try SyncMerger.decide(habit(["archivedOn": .string("2026-11-28")], stamps: ["archivedOn": late]), in: held, as: .server)
        guard case .mergeHabit(let row, _, let own, _) = decision else { Issue.record("\(decision)"); return }
        #expect(row["name"] == .string("book") && row["archivedOn"] == .string("2026-11-28") && own)
    }

    @Test("a start moved and an archive set that clash: both days from the later side, never archived before it starts")
    func startAndArchiveClash() throws {
        var held = holding()
        held.rows["habit" + habitID]?["archivedOn"] = .string("2026-11-10")
        held.stamps[habitID] = ["archivedOn": early]
        let decision = try SyncMerger.decide(habit(["startedOn": .string("2026-11-15")], stamps: ["startedOn": late]), in: held, as: .server)
        guard case .mergeHabit(let row, let stamps, _, _) = decision else { Issue.record("\(decision)"); return }
        #expect(row["startedOn"] == .string("2026-11-15") && row["archivedOn"] == .null)
        #expect(stamps["startedOn"] == late && stamps["archivedOn"] == late)
    }

    @Test("the same value written again moves only the stamps, and that is logged")
    func restamp() throws {
        var held = holding()
        held.rows["habit" + habitID]?["name"] = .string("book")
        held.stamps[habitID] = ["name": early]
        let decision = try SyncMerger.decide(habit(["name": .string("book")], stamps: ["name": late]), in: held, as: .server)
        #expect(decision == .restampHabit(held.habit, stamps: ["name": late]))
        #expect(decision.outcome == .applied)
    }

    @Test("the same value written again beside an older value of another field: the row goes back to the sender as the receiver's own")
    func restampBesideOlderField() throws {
        // Held: name `book` (stamped early) and place 3 (stamped late, by another device). The
        // sender wrote `book` again later, but still holds place 2 from before the move: were the
        // row logged as the sender's, the sender would never be sent place 3.
        var held = holding()
        held.rows["habit" + habitID]?["name"] = .string("book")
        held.rows["habit" + habitID]?["position"] = .number(3)
        let third = SyncStamp(hlc: 150 << 16, device: "c")
        held.stamps[habitID] = ["name": early, "position": third]
        let decision = try SyncMerger.decide(habit(["name": .string("book"), "position": .number(2)], stamps: ["name": late]), in: held, as: .server)
        guard case .mergeHabit(let row, let stamps, let own, let overrides) = decision else { Issue.record("\(decision)"); return }
        #expect(row == held.habit && own && overrides.isEmpty)
        #expect(stamps == ["name": late, "position": third])
    }

    @Test("a delete racing an edit or a record: the tombstone wins, records that arrive later are dropped")
    func deleteWins() throws {
        var held = Held()
        held.hold(.habit, habitID, nil)
        #expect(try SyncMerger.decide(habit(["name": .string("novel")], stamps: ["name": late]), in: held, as: .server) == .keep)
        #expect(try SyncMerger.decide(record(late), in: held, as: .server) == .drop)
        #expect(SyncDecision.drop.outcome == .dropped)
        let tombstone = SyncChange(kind: .habit, key: habitID, stamp: early, fields: nil)
        #expect(try SyncMerger.decide(tombstone, in: holding(), as: .server) == .delete)
    }

    @Test("an undo racing a sync: a record undone here stays undone whatever copy arrives")
    func undoWins() throws {
        var held = holding()
        held.hold(.completion, recordID, nil, stamp: early)
        #expect(try SyncMerger.decide(record(late), in: held, as: .server) == .keep)
    }

    @Test("records are a union by id; a held one is replaced only by a later stamp", arguments: [
        (heldStamp: early, incoming: late, replaced: true),
        (heldStamp: late, incoming: early, replaced: false),
    ])
    func records(heldStamp: SyncStamp, incoming: SyncStamp, replaced: Bool) throws {
        var held = holding()
        #expect(try SyncMerger.decide(record(incoming), in: held, as: .server) == .insert(record(incoming).entity!))
        held.hold(.completion, recordID, record(heldStamp).fields, stamp: heldStamp)
        let decision = try SyncMerger.decide(record(incoming, amount: 2), in: held, as: .server)
        #expect(decision == (replaced ? .update(record(incoming, amount: 2).entity!) : .keep))
    }

    @Test("two revisions under one number on the server: the second rules are appended, once however often pushed")
    func revisionsOnTheServer() throws {
        var held = holding()
        held.hold(.revision, habitID + "/1", revision(1, goal: 1))
        held.hold(.revision, habitID + "/2", revision(2, goal: 2))
        let pushed = SyncChange(kind: .revision, key: habitID + "/2", stamp: late, fields: revision(2, goal: 3, created: 6))
        let decision = try SyncMerger.decide(pushed, in: held, as: .server)
        #expect(decision == .renumber(rules(3, goal: 3, created: 6)) && decision.outcome == .renumbered(3))
        // Pushed again after the answer was lost: the server holds it under 3 already.
        held.hold(.revision, habitID + "/3", revision(3, goal: 3, created: 6))
        #expect(try SyncMerger.decide(pushed, in: held, as: .server) == .keep)
        // The same rules with a script pin the held copy lacks: one revision, pinned.
        held.hold(.script, hash, scriptRow)
        let pinned = SyncChange(kind: .revision, key: habitID + "/2", stamp: late, fields: revision(2, goal: 2, pin: hash))
        #expect(try SyncMerger.decide(pinned, in: held, as: .server) == .update(rules(2, goal: 2, pin: hash)))
    }

    @Test("on a device the server's numbering holds; the device's own unpushed rules move to the next number", arguments: [
        (pushedThrough: Int64(0), moves: true),
        (pushedThrough: Int64(5), moves: false),
    ])
    func revisionsOnADevice(pushedThrough: Int64, moves: Bool) throws {
        var held = holding()
        held.hold(.revision, habitID + "/1", revision(1, goal: 1))
        held.hold(.revision, habitID + "/2", revision(2, goal: 2), stamp: SyncStamp(hlc: 1, device: "me"), seq: 3)
        let server = SyncChange(kind: .revision, key: habitID + "/2", stamp: late, fields: revision(2, goal: 3, created: 6))
        let decision = try SyncMerger.decide(server, in: held, as: .device(id: "me", pushedThrough: pushedThrough))
        #expect(decision == .replaceRevision(rules(2, goal: 3, created: 6), moved: moves ? [rules(3, goal: 2)] : []))
    }

    @Test("two unpushed rule edits displaced by the server's revision move up together, in the order they were made (D8)")
    func unpushedEditsKeepTheirOrder() throws {
        var held = holding()
        held.hold(.revision, habitID + "/1", revision(1, goal: 1))
        held.hold(.revision, habitID + "/2", revision(2, goal: 5), stamp: SyncStamp(hlc: 1, device: "me"), seq: 3)
        held.hold(.revision, habitID + "/3", revision(3, goal: 7), stamp: SyncStamp(hlc: 2, device: "me"), seq: 4)
        let server = SyncChange(kind: .revision, key: habitID + "/2", stamp: late, fields: revision(2, goal: 3, created: 6))
        let decision = try SyncMerger.decide(server, in: held, as: .device(id: "me", pushedThrough: 2))
        #expect(decision == .replaceRevision(rules(2, goal: 3, created: 6), moved: [rules(3, goal: 5), rules(4, goal: 7)]))
    }

    @Test("changes no replica could hold are refused, naming why", arguments: [
        ("record of a habit never held", SyncChange(kind: .completion, key: recordID, stamp: late, fields: record(late).fields)),
        ("revision leaving a gap", SyncChange(kind: .revision, key: habitID + "/3", stamp: late, fields: revision(3, goal: 1))),
        ("revision naming a missing script", SyncChange(kind: .revision, key: habitID + "/1", stamp: late, fields: revision(1, goal: 1, pin: hash))),
    ])
    func refusals(what: String, change: SyncChange) throws {
        let held = change.kind == .completion ? Held() : holding()
        #expect(throws: SyncError.self, "\(what)") { try SyncMerger.decide(change, in: held, as: .server) }
    }

    @Test("scripts are a union by hash")
    func scripts() throws {
        let script = SyncChange(kind: .script, key: hash, stamp: late, fields: scriptRow)
        #expect(try SyncMerger.decide(script, in: Held(), as: .server) == .insert(SyncEntity(.script, scriptRow)))
        var held = Held()
        held.hold(.script, hash, scriptRow)
        #expect(try SyncMerger.decide(script, in: held, as: .server) == .keep)
    }

    @Test("a group is written whole, the later write winning; its revisions need the group")
    func groupNames() throws {
        let first = "0D0D0D0D-0000-4000-8000-000000000001", second = "0D0D0D0D-0000-4000-8000-000000000002"
        func group(_ id: String, created: Double, name: String = "morning") -> [String: JSONValue] {
            ["id": .string(id), "name": .string(name), "createdAt": .number(created)]
        }
        // A group under a name another holds is taken as it comes: the server settles the names
        // after the push, as it does habits'.
        var held = Held()
        held.hold(.group, first, group(first, created: 1))
        let later = try SyncMerger.decide(SyncChange(kind: .group, key: second, stamp: late, fields: group(second, created: 2)), in: held, as: .server)
        #expect(later == .insert(SyncEntity(.group, group(second, created: 2))))
        #expect(SyncMerger.settledNames([SyncMerger.NamedHabit(id: first, name: "morning", created: 1),
                                         SyncMerger.NamedHabit(id: second, name: "Morning", created: 2)]).map(\.name) == ["Morning (2)"])
        // A later write wins whole, even one that names the name held: its stamp is taken.
        held.hold(.group, first, group(first, created: 1, name: "evening"))
        let renamed = try SyncMerger.decide(SyncChange(kind: .group, key: first, stamp: late, fields: group(first, created: 1, name: "night")), in: held, as: .server)
        #expect(renamed == .update(SyncEntity(.group, group(first, created: 1, name: "night"))))
        let same = try SyncMerger.decide(SyncChange(kind: .group, key: first, stamp: late, fields: group(first, created: 1, name: "evening")), in: held, as: .server)
        #expect(same == .update(SyncEntity(.group, group(first, created: 1, name: "evening"))))
        #expect(try SyncMerger.decide(SyncChange(kind: .group, key: first, stamp: early, fields: group(first, created: 1, name: "x")), in: held, as: .server) == .keep)
        // A group revision of a group never held is refused, one of a group deleted is dropped.
        let revision: [String: JSONValue] = [
            "group": .string(second), "number": .number(1), "effectiveFrom": .string("2026-11-01"), "members": .array([.string(habitID)]),
            "groupPolicy": .string("all"), "groupParams": .string("{}"), "streakPolicy": .string("strict"), "streakParams": .string("{}"),
            "createdAt": .number(1),
        ]
        let change = SyncChange(kind: .groupRevision, key: second + "/1", stamp: late, fields: revision)
        #expect(throws: SyncError.self) { try SyncMerger.decide(change, in: Held(), as: .server) }
        var gone = Held()
        gone.hold(.group, second, nil)
        #expect(try SyncMerger.decide(change, in: gone, as: .server) == .drop)
    }

    @Test("two habits with one name: the later-created is renamed, past names taken, in one pass however many share it")
    func settledNames() {
        let habits = [
            SyncMerger.NamedHabit(id: "B", name: "Water", created: 2),
            SyncMerger.NamedHabit(id: "A", name: " water", created: 1),
            SyncMerger.NamedHabit(id: "C", name: "water (2)", created: 0),
            SyncMerger.NamedHabit(id: "D", name: "walk", created: 3),
        ]
        let renamed = SyncMerger.settledNames(habits)
        #expect(renamed.map(\.id) == ["B"] && renamed.map(\.name) == ["Water (3)"])
        let alike = (0..<250).map { SyncMerger.NamedHabit(id: String(format: "%03d", $0), name: "x", created: Double($0)) }
        let names = SyncMerger.settledNames(alike).map(\.name)
        #expect(names.count == 249 && Set(names).count == 249 && names.first == "x (2)" && names.last == "x (250)")
    }
}
