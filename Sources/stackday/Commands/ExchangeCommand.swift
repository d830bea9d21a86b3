import Foundation
import StackDay

/// `stackday export` and `stackday import`.
enum ExchangeCommand {
    static var export: CommandSpec {
        CommandSpec(
            name: "export", abstract: "Write every habit, completion and skip as CSV or JSON.",
            options: [
                OptionSpec(name: "format", valueName: "csv|json", help: "The format (default: json)."),
                OptionSpec(name: "out", valueName: "file", help: "Write to a file instead of stdout."),
            ],
            run: runExport
        )
    }

    static var importSpec: CommandSpec {
        CommandSpec(
            name: "import", abstract: "Read an export, or Loop Habit Tracker's CSV folder; importing twice changes nothing.",
            discussion: "The whole file is checked before anything is written; a malformed row is named by file, line and column.",
            arguments: [ArgumentSpec(name: "path", help: "The file (csv, json) or folder (loop).")],
            options: [OptionSpec(name: "format", valueName: "csv|json|loop", help: "The format (default: from the extension; a folder is loop).")],
            run: runImport
        )
    }

    static func runExport(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let format = invocation.option("format") ?? "json"
        guard format == "json" || format == "csv" else { throw invocation.usage("invalid value for --format: '\(format)' (use csv or json)") }
        let archive = try ExportArchive(context: try environment.context())()
        let text = format == "csv" ? ArchiveCSV.encode(archive) : ArchiveJSON.encode(archive)
        if let path = invocation.option("out") {
            try OutputFile.write(text, to: path)
        } else {
            environment.io.write(text)
        }
    }

    static func runImport(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let path = invocation.required("path")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw CommandFailure("no such file or folder: \(path)") }
        let format = invocation.option("format") ?? (isDirectory.boolValue ? "loop" : path.lowercased().hasSuffix(".csv") ? "csv" : "json")
        let archive: HabitArchive
        switch format {
        case "loop":
            guard isDirectory.boolValue else { throw CommandFailure("\(path) is not a folder; --format loop reads Loop's export folder") }
            archive = try LoopImporter(folder: URL(fileURLWithPath: path), now: environment.clock.now).read()
        case "csv", "json":
            let text = try LoopImporter.readText(URL(fileURLWithPath: path))
            archive = format == "csv" ? try ArchiveCSV.decode(text, file: path) : try ArchiveJSON.decode(text, file: path)
        default:
            throw invocation.usage("invalid value for --format: '\(format)' (use csv, json or loop)")
        }
        let io = environment.io
        let summary = try ImportArchive(context: try environment.context())(archive) { done, total in
            io.progress("importing \(Format.bar(total == 0 ? 1 : Double(done) / Double(total), width: 30)) \(done)/\(total)")
        }
        io.endProgress()
        if environment.json {
            return environment.printJSON(.object(["inserted": JSONOutput.int(summary.inserted), "alreadyPresent": JSONOutput.int(summary.alreadyPresent)]))
        }
        io.print("Imported \(summary.inserted) record\(summary.inserted == 1 ? "" : "s"); \(summary.alreadyPresent) already present.")
    }
}
