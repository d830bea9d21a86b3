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
        guard let policies = PolicyLibrary.builtInFolder() else { throw BenchError("cannot find the Policies folder") }
        self.policies = policies
        repository = policies.deletingLastPathComponent()
        stackday = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("stackday").path
        guard FileManager.default.isExecutableFile(atPath: stackday) else { throw BenchError("build stackday next to the benchmark first (\(stackday))") }
        work = FileManager.default.temporaryDirectory.appendingPathComponent("stackday-bench-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
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
