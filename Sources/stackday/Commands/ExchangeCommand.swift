import Foundation
import StackDay
import StackDayApplication
import StackDayExchange

/// `stackday export` and `stackday import`.
enum ExchangeCommand {
    static let exportFormat = RequestField<String>.choice(
        "format", among: ["csv", "json", "ics", "loop"],
        help: "The format (default: json); ics: the habits' schedules as an iCalendar feed, a year ahead (docs/server.md); loop: Loop Habit Tracker's CSV folder (needs --out FOLDER).",
        valueName: "csv|json|ics|loop").commandLineOnly
    static let out = RequestField<String>.text("out", help: "Write to a file instead of stdout.", valueName: "file").commandLineOnly
    static let path = RequestField<String>.text("path", help: "The file (csv, json) or folder (loop).").argument("path", optional: false).commandLineOnly
    static let importFormat = RequestField<String>.choice("format", among: ["csv", "json", "loop"], help: "The format (default: from the extension; a folder is loop).",
                                                          valueName: "csv|json|loop").commandLineOnly.map { ArchiveFormat(rawValue: $0)! }

    static var export: CommandSpec {
        CommandSpec(name: "export", abstract: "Write every habit, completion and skip as CSV or JSON, or as Loop Habit Tracker's folder.", run: runExport)
            .taking([exportFormat.declaration, out.declaration])
    }

    static var importSpec: CommandSpec {
        CommandSpec(
            name: "import", abstract: "Read an export, or Loop Habit Tracker's CSV folder; importing twice changes nothing.",
            discussion: "The whole file is checked before anything is written; a malformed row is named by file, line and column.",
            run: runImport
        ).taking([path.declaration, importFormat.declaration])
    }

    static func runExport(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let name = try invocation[exportFormat] ?? "json"
        let out = try invocation[out]
        if name == "ics" {
            let text = try environment.application().calendarFeed(title: "StackDay").text
            if let out { return try OutputFile.writing(to: out) { emit in try emit(text) } }
            return environment.io.write(text)
        }
        if name == "loop" {
            guard let out else { throw invocation.usage("--format loop writes a folder: give it with --out FOLDER") }
            return try exportLoop(to: out, environment: environment)
        }
        guard let format = ArchiveFormat(rawValue: name) else { throw invocation.usage("invalid value for --format: '\(name)' (use csv, json, ics or loop)") }
        // No progress line between the lines of an export printed on the same terminal.
        let progress = ProgressLine(io: environment.io, label: "exporting", unit: "habits",
                                    shown: out != nil || !environment.io.isTerminal)
        let export = ExportArchive(context: try environment.context())
        // The archive goes out a habit at a time, never whole.
        func write(_ emit: @escaping (String) throws -> Void) throws {
            var writer = ArchiveWriter(format: format, emit: emit)
            defer { progress.end() }
            try export.stream(progress: { progress.update($0, of: $1) }) { try writer.write($0) }
            try writer.finish()
        }
        if let out {
            try OutputFile.writing(to: out) { emit in try withoutActuallyEscaping(emit) { try write($0) } }
        } else {
            let io = environment.io
            try write { io.write($0) }
        }
    }

    /// Loop Habit Tracker's export folder at `path`, which must not exist or be empty: nothing is
    /// written over. What Loop's layout could not hold is said on standard error.
    static func exportLoop(to path: String, environment: CLIEnvironment) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue, (try? FileManager.default.contentsOfDirectory(atPath: path))?.isEmpty == true else {
                throw CommandFailure("\(path) exists and is not an empty folder; --format loop writes a new folder")
            }
        }
        let folder = LoopExporter(try ExportArchive(context: try environment.context())()).folder()
        let root = URL(fileURLWithPath: path)
        for file in folder.files {
            let url = root.appendingPathComponent(file.path)
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.text.utf8).write(to: url)
            } catch {
                throw CommandFailure("cannot write \(url.path): \(error.localizedDescription)")
            }
        }
        for note in folder.notes { environment.io.error(note) }
        let habits = folder.files.count - 1
        environment.io.print(environment.words.say("Wrote {habits} in Loop's layout to {path}.", ("habits", "\(habits) habit\(habits == 1 ? "" : "s")"),
                                                   ("count", "\(habits)"), ("path", path)))
    }

    static func runImport(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let path = try invocation.required(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw CommandFailure("no such file or folder: \(path)") }
        let format: ArchiveFormat
        if let given = try invocation[importFormat] {
            format = given
        } else {
            format = ArchiveFormat.guess(path: path, isFolder: isDirectory.boolValue)
        }
        if format == .loop, !isDirectory.boolValue { throw CommandFailure("\(path) is not a folder; --format loop reads Loop's export folder") }
        let source = try format.source(URL(fileURLWithPath: path), now: environment.clock.now)
        let io = environment.io
        let progress = ProgressLine(io: io, label: "importing")
        progress.status("reading \(path)…")
        let summary = try withExtendedLifetime(progress) {
            defer { progress.end() }
            return try ImportArchive(context: try environment.context())(source: source) { progress.update($0, of: $1) }
        }
        if environment.json {
            return environment.printJSON(.object(["inserted": ViewJSON.int(summary.inserted), "alreadyPresent": ViewJSON.int(summary.alreadyPresent),
                                                  "unplacedNotes": ViewJSON.int(summary.unplacedNotes), "keptDeleted": ViewJSON.int(summary.keptDeleted)]))
        }
        if environment.language == .korean {
            io.print("가져왔습니다: 기록 \(summary.inserted)건, 이미 있던 것 \(summary.alreadyPresent)건")
            if summary.unplacedNotes > 0 { io.print("기록이 없는 날(하지 않았거나 건너뛴 날)의 메모 \(summary.unplacedNotes)건은 남기지 않았습니다") }
            if summary.keptDeleted > 0 { io.print("동기화로 삭제된 습관·기록 \(summary.keptDeleted)건은 되살리지 않았습니다") }
            return
        }
        io.print("Imported \(summary.inserted) record\(summary.inserted == 1 ? "" : "s"); \(summary.alreadyPresent) already present.")
        if summary.unplacedNotes > 0 {
            io.print("\(summary.unplacedNotes) note\(summary.unplacedNotes == 1 ? " was" : "s were") on days with no record (not done, or skipped) and \(summary.unplacedNotes == 1 ? "is" : "are") not kept.")
        }
        if summary.keptDeleted > 0 {
            io.print("\(summary.keptDeleted) habit\(summary.keptDeleted == 1 ? "" : "s"), record\(summary.keptDeleted == 1 ? "" : "s") or skip\(summary.keptDeleted == 1 ? " was" : "s were") deleted here and synced as deleted: kept deleted.")
        }
    }
}
