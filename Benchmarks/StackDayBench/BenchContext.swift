import Foundation
import StackDayLua

/// Where things are, and how big to make them.
struct BenchContext {
    let quick: Bool
    let repository: URL
    let policies: URL
    let stackday: String
    let work: URL

    init(quick: Bool) throws {
        self.quick = quick
        guard let repository = Self.repository() else { throw BenchError("run the benchmark from inside the StackDay checkout") }
        self.repository = repository
        policies = repository.appendingPathComponent("Policies")
        stackday = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("stackday").path
        guard FileManager.default.isExecutableFile(atPath: stackday) else { throw BenchError("build stackday next to the benchmark first (\(stackday))") }
        work = FileManager.default.temporaryDirectory.appendingPathComponent("stackday-bench-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    /// The checkout: the nearest folder holding Package.swift, above the executable or the working directory.
    static func repository() -> URL? {
        let starts = [URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath(), URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true).appendingPathComponent("x")]
        for start in starts {
            var folder = start.deletingLastPathComponent()
            while folder.path != "/" {
                if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) { return folder }
                folder = folder.deletingLastPathComponent()
            }
        }
        return nil
    }

    func path(_ name: String) -> String { work.appendingPathComponent(name).path }

    func write(_ name: String, _ text: String) throws -> String {
        let file = path(name)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// Whether a program is on the PATH.
    static func has(_ program: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(program)")
        }
    }
}
