import Foundation
import StackDay
import StackDayApplication
import StackDayExchange

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
        let name = invocation.option("format") ?? "json"
        guard let format = ArchiveFormat(rawValue: name), format != .loop else {
            throw invocation.usage("invalid value for --format: '\(name)' (use csv or json)")
        }
        let archive = try ExportArchive(context: try environment.context())()
        let text = format.encode(archive) ?? ""
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
        let format: ArchiveFormat
        if let name = invocation.option("format") {
            guard let given = ArchiveFormat(rawValue: name) else { throw invocation.usage("invalid value for --format: '\(name)' (use csv, json or loop)") }
            format = given
        } else {
            format = ArchiveFormat.guess(path: path, isFolder: isDirectory.boolValue)
        }
        if format == .loop, !isDirectory.boolValue { throw CommandFailure("\(path) is not a folder; --format loop reads Loop's export folder") }
        let archive = try format.read(URL(fileURLWithPath: path), now: environment.clock.now)
        let io = environment.io
        let summary = try ImportArchive(context: try environment.context())(archive) { done, total in
            io.progress("importing \(Format.bar(total == 0 ? 1 : Double(done) / Double(total), width: 30)) \(done)/\(total)")
        }
        io.endProgress()
        if environment.json {
            return environment.printJSON(.object(["inserted": ViewJSON.int(summary.inserted), "alreadyPresent": ViewJSON.int(summary.alreadyPresent)]))
        }
        io.print("Imported \(summary.inserted) record\(summary.inserted == 1 ? "" : "s"); \(summary.alreadyPresent) already present.")
    }
}
