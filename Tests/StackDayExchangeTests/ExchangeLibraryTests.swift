import Foundation
import Testing
import StackDay
@testable import StackDayExchange
import StackDayTestSupport

func day(_ text: String) -> LocalDay {
    do { return try LocalDay(iso: text) } catch { preconditionFailure("bad literal \(text)") }
}

/// A small archive with what exports must carry: a Unicode name with a comma and quotes, a
/// fractional amount, an archived habit with a record after its archive day, a skip, and a group
/// of both whose members and rules changed from a day, then were taken back.
func sampleArchive() throws -> HabitArchive {
    let created = Date(timeIntervalSince1970: 1_790_000_000.123)
    let water = try Habit(name: "물, \"cold\"", startedOn: day("2026-10-01"), createdAt: created, goal: 2.5, unit: "l",
                          schedule: PolicyChoice(name: "weekly", parametersJSON: #"{"days":["mon","thu"]}"#))
    // A rule changed from a day and taken back: the rollback's revision says what it takes back.
    let first = try Habit(name: "read", startedOn: day("2026-10-01"), archivedOn: day("2026-10-05"), createdAt: created,
                          streak: PolicyChoice(name: "grace", parametersJSON: #"{"misses":1,"per":7}"#))
    let read = try first.appending(try first.latest.with(streak: PolicyChoice(name: "strict")), from: day("2026-10-03"), at: created)
        .appending(first.latest, from: day("2026-10-03"), at: created, takesBack: 2)
    let hash = String(repeating: "ab", count: 32)
    let routine = try HabitGroup(name: "routine, \"am\"", createdAt: created, revisions: [
        try GroupRevision(number: 1, effectiveFrom: day("2026-10-01"), members: [water.id, read.id],
                          rule: PolicyChoice(name: "at-least", parametersJSON: #"{"count":1}"#).pinned(to: hash), createdAt: created),
        try GroupRevision(number: 2, effectiveFrom: day("2026-10-04"), members: [read.id], streak: PolicyChoice(name: "grace", parametersJSON: #"{"misses":2,"per":7}"#),
                          createdAt: created.addingTimeInterval(60)),
        try GroupRevision(number: 3, effectiveFrom: day("2026-10-04"), members: [water.id, read.id],
                          rule: PolicyChoice(name: "at-least", parametersJSON: #"{"count":1}"#).pinned(to: hash), createdAt: created, takesBack: 2),
    ])
    return HabitArchive(
        habits: [water, read],
        completions: [
            try Completion(habitID: water.id, completedOn: day("2026-10-02"), recordedAt: created, amount: 0.125),
            try Completion(habitID: read.id, completedOn: day("2026-10-09"), recordedAt: created.addingTimeInterval(86.5)),
        ],
        skips: [Skip(habitID: read.id, day: day("2026-10-03"), recordedAt: created)],
        groups: [routine]
    )
}

@Suite("exchange library")
struct ExchangeLibraryTests {
    @Test("CSV and JSON round-trip every field", arguments: [ArchiveFormat.csv, .json])
    func roundTrip(format: ArchiveFormat) throws {
        let archive = try sampleArchive()
        let text = try #require(format.encode(archive))
        let folder = try TemporaryFolder()
        let file = URL(fileURLWithPath: folder.path("archive.\(format.rawValue)"))
        try text.write(to: file, atomically: true, encoding: .utf8)
        let read = try format.read(file, now: Date())
        #expect(read.habits == archive.habits)
        #expect(read.completions == archive.completions)
        #expect(read.skips == archive.skips)
        #expect(read.groups == archive.groups && read.groups.count == 1)
        #expect(format.encode(read) == text)
    }

    /// The sample with notes that hold what both formats escape, and a script with line breaks.
    static func notedArchive() throws -> HabitArchive {
        var archive = try sampleArchive()
        let habit = archive.habits[0].id
        let created = Date(timeIntervalSince1970: 1_790_000_000)
        for (offset, note) in ["a \"quoted\", comma", "back\\slash\\\nnew line", "비 오는 날 ☔︎ {[\"]}", "\r\n\t"].enumerated() {
            archive.completions.append(try Completion(habitID: habit, completedOn: day("2026-10-0\(offset + 3)"), recordedAt: created, amount: 1, note: note))
        }
        archive.scripts = [PolicyScript(name: "every", source: "-- \"every\" day, {[\n]}\nreturn { schedule = function(ctx) return true end }\n", installedAt: created)]
        return archive
    }

    @Test("a file read in chunks of any size gives the archive read whole", arguments: [1, 2, 7, 64, 4096])
    func chunks(size: Int) throws {
        let archive = try Self.notedArchive()
        let folder = try TemporaryFolder()
        for format in [ArchiveFormat.csv, .json] {
            let text = try #require(format.encode(archive))
            let file = URL(fileURLWithPath: folder.path("archive.\(format.rawValue)"))
            try text.write(to: file, atomically: true, encoding: .utf8)
            let source = ArchiveFile(format: format, input: .file(file, chunkSize: size))
            let read = try HabitArchive(collecting: source)
            #expect(read.habits == archive.habits && read.scripts == archive.scripts, "\(format) in chunks of \(size)")
            #expect(Set(read.completions) == Set(archive.completions) && read.skips == archive.skips, "\(format) in chunks of \(size)")
            #expect(try source.catalog().records == archive.completions.count + archive.skips.count)
        }
    }

    @Test("a file that is not UTF-8 is refused naming the byte, in any chunk size; a byte order mark is dropped", arguments: [1, 3, 4096])
    func encoding(size: Int) throws {
        let folder = try TemporaryFolder()
        let archive = try Self.notedArchive()
        let text = try #require(ArchiveFormat.csv.encode(archive))
        let file = URL(fileURLWithPath: folder.path("archive.csv"))
        try Data([0xEF, 0xBB, 0xBF] + Array(text.utf8)).write(to: file)
        let read = try HabitArchive(collecting: ArchiveFile(format: .csv, input: .file(file, chunkSize: size)))
        #expect(read.habits == archive.habits && Set(read.completions) == Set(archive.completions))
        var bytes = Array(text.utf8)
        // The first Hangul syllable (three bytes, led by 0xEB) made into each kind of bad sequence;
        // the byte named is the first that cannot be UTF-8 there (1-based).
        let broken = try #require(bytes.firstIndex(of: 0xEB))
        let cases: [([UInt8], Int)] = [([0xFF, 0x41, 0x41], 1), ([0xC0, 0xAF, 0x41], 1), ([0xED, 0xA0, 0x80], 2), ([0xEB, 0xB9, 0x41], 3)]
        for (bad, at) in cases {
            bytes = Array(text.utf8)
            bytes.replaceSubrange(broken..<broken + 3, with: bad)
            try Data(bytes).write(to: file)
            let error = try #require(throws: ImportFormatError.self) {
                _ = try HabitArchive(collecting: ArchiveFile(format: .csv, input: .file(file, chunkSize: size)))
            }
            #expect(error.description.contains("not UTF-8 text: byte \(broken + at) "), "\(bad): \(error)")
        }
        // Cut off at the end, inside a character.
        try Data(Array(text.utf8) + [0xEB, 0xB9]).write(to: file)
        #expect(throws: ImportFormatError.self) { _ = try HabitArchive(collecting: ArchiveFile(format: .json, input: .file(file, chunkSize: size))) }
    }

    @Test("JSON members in any order and laid out any way are read; a broken record is named by line and column")
    func jsonLayout() throws {
        let archive = try Self.notedArchive()
        let text = try #require(ArchiveFormat.json.encode(archive))
        let root = try #require(try JSONValue(parsing: text).objectValue)
        func list(_ key: String) -> String {
            guard case .array(let items)? = root[key] else { return "[]" }
            return "[\n    " + items.map(\.jsonText).joined(separator: " ,\n    ") + "\n  ]"
        }
        let reordered = "\n{ \"scripts\": \(list("scripts")),\n  \"skips\" : \(list("skips")),\n  \"completions\":\(list("completions")),\n"
            + "  \"version\": 2, \"habits\": \(list("habits")), \"format\": \"stackday\" }\n"
        let read = try ArchiveJSON.decode(reordered, file: "x.json")
        #expect(read.habits == archive.habits && read.scripts == archive.scripts && Set(read.completions) == Set(archive.completions))
        // The third completion's line: its amount made a bare word.
        var lines = reordered.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let index = try #require(lines.firstIndex { $0.contains("\"amount\":1,\"day\":\"2026-10-04\"") })
        lines[index] = lines[index].replacingOccurrences(of: "\"amount\":1,", with: "\"amount\":one,")
        let error = try #require(throws: ImportFormatError.self) { _ = try ArchiveJSON.decode(lines.joined(separator: "\n"), file: "x.json") }
        let column = try #require(lines[index].range(of: "one")).lowerBound.utf16Offset(in: lines[index]) + 1
        #expect(error.line == index + 1 && error.column == column, "\(error) (expected line \(index + 1), column \(column))")
        for broken in ["{\"format\":\"stackday\",\"version\":2,\"habits\":[],\"completions\":[{\"id\":1}", "{\"format\":\"stackday\"} x", "[1]"] {
            #expect(throws: ImportFormatError.self) { _ = try ArchiveJSON.decode(broken, file: "x.json") }
        }
        let noCompletions = try #require(throws: ImportFormatError.self) { _ = try ArchiveJSON.decode(#"{"format":"stackday","version":2,"habits":[]}"#, file: "x.json") }
        #expect(noCompletions.description.contains("completions: must be an array"), "\(noCompletions)")
    }

    @Test("a malformed file names file, line and column", arguments: [
        (ArchiveFormat.csv, "kind,id\n", "x.csv:1: expected the header"),
        (ArchiveFormat.json, #"{"format":"stackday","version":1,"habits":[{]}"#, "x.json:1:"),
        (ArchiveFormat.json, #"{"format":"other"}"#, "not a StackDay export"),
        (ArchiveFormat.json, #"{"format":"stackday","version":2,"habits":[],"groups":[{"id":"0190d0b6-7e01-7000-8000-000000000001","name":"g","createdAt":"2026-10-01T00:00:00Z","revisions":[{"revision":1,"from":"2026-10-01","members":[],"rule":{"name":"all"},"streak":{"name":"strict"},"createdAt":"2026-10-01T00:00:00Z"}]}],"completions":[]}"#,
         "groups[0].revisions[0]: a group needs at least one member"),
        (ArchiveFormat.csv, ArchiveCSV.headerLine + "\ngroup_revision,0190d0b6-7e01-7000-8000-000000000001,,,2026-10-01,,2026-10-01T00:00:00Z,,,,,,,,strict,,1,,,,,,,,,,,,,,,,not-an-id,all,,\n",
         "x.csv:2:"),
    ])
    func malformed(format: ArchiveFormat, text: String, message: String) throws {
        let error = try #require(throws: ImportFormatError.self) {
            _ = format == .csv ? try ArchiveCSV.decode(text, file: "x.csv") : try ArchiveJSON.decode(text, file: "x.json")
        }
        #expect(error.description.contains(message), "\(error)")
        #expect(error.description.hasPrefix(error.file), "\(error)")
    }

    @Test("an unreadable file is an import error naming it")
    func unreadable() throws {
        let error = try #require(throws: ImportFormatError.self) {
            _ = try ArchiveFormat.json.read(URL(fileURLWithPath: "/nonexistent/export.json"), now: Date())
        }
        #expect(error.file == "/nonexistent/export.json")
        #expect(ArchiveFormat.loop.encode(HabitArchive()) == nil)
        #expect(ArchiveFormat.guess(path: "a.CSV", isFolder: false) == .csv)
        #expect(ArchiveFormat.guess(path: "Loop Habits", isFolder: true) == .loop)
    }

    @Test("instants: the export layout and RFC 3339 with offsets", arguments: [
        ("2026-10-11T13:00:00.000Z", 1_791_723_600.0),
        ("2026-10-11T22:00:00+09:00", 1_791_723_600.0),
        ("2026-10-11T13:00:00.1236Z", 1_791_723_600.124),
        ("1969-12-31T23:59:59.500Z", -0.5),
    ])
    func instants(text: String, seconds: Double) throws {
        let date = try #require(InstantText.parse(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.0005)
        #expect(InstantText.parse(InstantText.format(date)) == date)
    }

    @Test("text that is not an instant is refused", arguments: [
        "2026-10-11T13:00:00", "2026-10-11T13:00:00Zjunk", "2026-10-11T24:00:00Z", "2026-02-30T12:00:00Z",
        "2026-10-11 13:00:00Z", "2026-10-11T13:00:00+9:00", "2026-10-11T13:00:00.Z", "20260-10-11T13:00:00Z", "",
    ])
    func notInstants(text: String) {
        #expect(InstantText.parse(text) == nil)
    }

    @Test("imported ids stay what earlier releases derived, so a re-import finds its records", arguments: [
        // FNV-1a over "loop-completion␟Water␟2026-10-02", computed by an independent implementation.
        ("loop-completion", "Water", "2026-10-02", "ECEA8072-FCE8-8C14-A5B1-3E9A9670CD20"),
    ])
    func stableIDs(kind: String, name: String, day: String, expected: String) throws {
        let id = StableID.make(kind, name, day)
        #expect(id.uuidString == expected)
        #expect(StableID.Prefix(kind, name).make(try LocalDay(iso: day)) == id)
    }
}
