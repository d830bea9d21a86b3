import Foundation
import Testing
import StackDay

/// The compact form of changes on the wire: the same changes back, every malformed page refused.
@Suite("sync wire form")
struct SyncWireFormTests {
    static let habit = "0A0A0A0A-0000-4000-8000-000000000001"
    static let record = "0B0B0B0B-0000-4000-8000-000000000002"
    static let one = SyncStamp(hlc: 117_000_000_000_000_001, device: "DEVICE-ONE")
    static let two = SyncStamp(hlc: 117_000_000_000_000_002, device: "server")

    static let changes: [SyncChange] = [
        SyncChange(kind: .habit, key: habit, stamp: one, fields: [
            "id": .string(habit), "name": .string("물 마시기"), "startedOn": .string("2026-11-01"), "archivedOn": .null,
            "createdAt": .number(1.7e9), "updatedAt": .number(1.7e9 + 0.5), "unit": .string("잔"), "position": .number(2),
            "colorTag": .string("teal"), "stepThousandths": .null, "question": .string("물 마셨나요?"), "description": .null,
        ], fieldStamps: ["name": two, "unit": one, "colorTag": two]),
        SyncChange(kind: .completion, key: record, stamp: two, fields: [
            "id": .string(record), "habit": .string(habit), "day": .string("2026-11-02"), "recordedAt": .number(1.7e9),
            "amountThousandths": .number(1500), "note": .string("a \"quoted\" note"),
        ]),
        SyncChange(kind: .skip, key: record, stamp: one, fields: nil),
        SyncChange(kind: .revision, key: habit + "/2", stamp: two, fields: nil),
    ]

    @Test("a request and an answer in the compact form read back as the same changes, stamps and devices included")
    func roundTrip() throws {
        let request = SyncRequest(device: "DEVICE-ONE", since: 7, changes: Self.changes)
        let text = request.json.jsonText
        #expect(text.contains(#""form":3"#) && !text.contains(#""row""#))
        let back = try SyncRequest(json: try JSONValue(parsing: text))
        #expect(back.changes == Self.changes && back.compact && back.since == 7)
        let answer = SyncResponse(changes: Self.changes, position: 9, more: false, accepted: 1, compact: true)
        let read = try SyncResponse(json: try JSONValue(parsing: answer.json.jsonText))
        #expect(read.changes == Self.changes && read.compact)
        // The object form still reads, and is answered in kind.
        let old = try SyncRequest(json: try JSONValue(parsing: SyncRequest(device: "DEVICE-ONE", since: 7, changes: Self.changes, compact: false).json.jsonText))
        #expect(old.changes == Self.changes && !old.compact)
    }

    @Test("who is syncing with whom reads back: epoch, full, previous, written and mark; the server's id, epoch, clock and mark")
    func identities() throws {
        let request = SyncRequest(device: "DEVICE-ONE", since: 41, changes: [], limit: 0, epoch: "E2", full: true, previous: "DEVICE-OLD",
                                  written: 17, mark: "M41")
        let back = try SyncRequest(json: try JSONValue(parsing: request.json.jsonText))
        #expect(back.epoch == "E2" && back.full && back.previous == "DEVICE-OLD" && back.written == 17 && back.mark == "M41" && back.since == 41)
        // A request without them (a device from before identities) reads as one that says nothing of them.
        let bare = try SyncRequest(json: try JSONValue(parsing: #"{"device": "D", "since": 0}"#))
        #expect(bare.epoch == nil && !bare.full && bare.previous == nil && bare.written == nil && bare.mark == nil)
        let server = SyncServerIdentity(id: "S1", epoch: "E2")
        let answer = SyncResponse(changes: [], position: 41, more: false, accepted: 0, reset: true, server: server, now: 117_000_000_000_000_009, mark: "M41")
        let read = try SyncResponse(json: try JSONValue(parsing: answer.json.jsonText))
        #expect(read.server == server && read.reset && read.now == 117_000_000_000_000_009 && read.mark == "M41")
        #expect(throws: SyncError.self) { try SyncRequest(json: try JSONValue(parsing: #"{"device": "D", "since": 0, "written": "many"}"#)) }
    }

    @Test("each field name and device id goes once a page: a page of records is well under the object form's size")
    func smaller() {
        let records = (0..<200).map { index in
            let id = UUIDText.format(UUID())
            return SyncChange(kind: .completion, key: id, stamp: Self.one, fields: [
                "id": .string(id), "habit": .string(Self.habit), "day": .string("2026-11-02"), "recordedAt": .number(1.7e9 + Double(index)),
                "amountThousandths": .number(1000), "note": .null,
            ])
        }
        let compact = SyncRequest(device: "DEVICE-ONE", since: 0, changes: records).json.jsonText.utf8.count
        let objects = SyncRequest(device: "DEVICE-ONE", since: 0, changes: records, compact: false).json.jsonText.utf8.count
        #expect(Double(compact) < 0.6 * Double(objects), "\(compact) against \(objects) bytes")
    }

    @Test("a malformed compact page is refused, naming what is wrong", arguments: [
        (#"{"device":"d","form":4}"#, "\"form\" to be 1"),
        (#"{"device":"d","form":2,"devices":[],"columns":{},"changes":[]}"#, "form 2, a protocol of an older stackday: update stackday on this device"),
        (#"{"device":"d","form":3,"changes":[]}"#, "needs \"devices\""),
        (#"{"device":"d","form":3,"devices":[],"fields":{"meal":[]},"changes":[]}"#, "unknown kind \"meal\""),
        (#"{"device":"d","form":3,"devices":[],"fields":{"skip":["id"]},"changes":[]}"#, "\"fields\".skip to be"),
        (#"{"device":"d","form":3,"devices":["x"],"fields":{},"changes":[["skip","1",3,null,"K"]]}"#, "names no device"),
        (#"{"device":"d","form":3,"devices":["x"],"fields":{},"changes":[["skip","1",0,null]]}"#, "a deletion without its key"),
        (#"{"device":"d","form":3,"devices":["x"],"fields":{},"changes":[["skip","1",0,["A"]]]}"#, "not \"fields\".skip"),
        (#"{"device":"d","form":3,"devices":["x"],"fields":{},"changes":[["skip"]]}"#, "is not [kind, hlc, device, row, key, stamps, seq]"),
        (#"{"device":"d","changes":[],"devices":[]}"#, "unknown member \"devices\""),
        // A prefix may leave out only fields a change may lack: a habit row needs its unit.
        (#"{"device":"d","form":3,"devices":[],"fields":{"habit":["id","name","startedOn","archivedOn","createdAt","updatedAt"]},"changes":[]}"#,
         "\"fields\".habit to be"),
    ])
    func refused(body: String, names: String) throws {
        do {
            _ = try SyncRequest(json: try JSONValue(parsing: body))
            Issue.record("\(body) was taken")
        } catch let error as SyncError {
            #expect(error.description.contains(names), "\(error)")
        }
    }

    @Test("a device from before positions, colours and steps names the habit fields it knows: its rows read, the rest at their defaults")
    func olderColumns() throws {
        let body = #"""
            {"device":"d","form":3,"devices":["d"],"fields":{"habit":["id","name","startedOn","archivedOn","createdAt","updatedAt","unit"]},
             "changes":[["habit","5",0,["0A0A0A0A-0000-4000-8000-000000000001","Read","2026-11-01",null,1700000000,1700000000,""]]]}
            """#
        let request = try SyncRequest(json: try JSONValue(parsing: body))
        let fields = try #require(request.changes.first?.fields)
        #expect(fields["name"] == .string("Read") && fields["position"] == .number(0) && fields["colorTag"] == .null && fields["stepThousandths"] == .null)
    }

    @Test("entities travel typed: the wire names fields as the protocol does, never by a store's column, and messages as a person knows them")
    func typedFields() throws {
        for kind in SyncKind.allCases {
            let names = SyncEntity.fieldNames(kind)
            #expect(names.allSatisfy { !$0.contains("_") }, "\(kind): \(names)")
            #expect(Set(names).count == names.count && SyncEntity.rules(kind).count == names.count)
        }
        // Every change of the fixture goes through the object form and back as the same typed value.
        for change in Self.changes {
            #expect(try SyncChange(json: try JSONValue(parsing: change.json.jsonText), index: 0) == change)
        }
        #expect(SyncHabitField.colorTag.label == "colour" && SyncHabitField.stepThousandths.label == "step")
        #expect(SyncHabitField.stepThousandths.text(.number(2000)) == "2" && SyncHabitField.stepThousandths.text(.number(2500)) == "2.5")
        #expect(SyncHabitField.archivedOn.text(.null) == "none")
        // Text is compared byte for byte: a rename from NFC to NFD is a change.
        let nfc = SyncGroup(id: Self.habit, name: "caf\u{E9}", createdAt: 1), nfd = SyncGroup(id: Self.habit, name: "cafe\u{301}", createdAt: 1)
        #expect(nfc.name == nfd.name && nfc != nfd && SyncEntity.group(nfc) != .group(nfd))
    }
}
