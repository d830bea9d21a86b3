import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Wall-clock timing of closures and of child processes (with their peak memory).
enum Measure {
    /// The best of `repeats` runs of `body`, in seconds.
    static func best(_ repeats: Int, _ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<max(1, repeats) {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return best
    }

    struct ProcessRun {
        let seconds: Double
        /// Peak resident memory of the child, in bytes, as `wait4` reports it (it includes this
        /// process's memory at the time of the spawn; see `peakMemory`).
        let peakBytes: Int
        let status: Int32
        let stdout: String
    }

    /// Runs a program to completion; stdout is captured to a file, stderr passes through.
    static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> ProcessRun {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let spawned = posix_spawnp(&pid, program, &actions, nil, argv, envp)
        guard spawned == 0 else { throw BenchError("cannot start \(program): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        var usage = rusage()
        wait4(pid, &status, 0, &usage)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return ProcessRun(seconds: seconds, peakBytes: Int(usage.ru_maxrss) * 1024, status: exit, stdout: text)
    }

    /// A child's peak resident memory, in bytes, measured by a small python3 parent.
    ///
    /// `ru_maxrss` of a child started from this process would include this process's own
    /// memory (the child shares it until it runs the new program), so a small parent starts it.
    static func peakMemory(_ program: String, _ arguments: [String]) throws -> Int {
        let script = "import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True); "
            + "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
        let run = try run("python3", ["-c", script, program] + arguments)
        guard run.status == 0, let kilobytes = Int(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchError("cannot measure the memory of \(program)")
        }
        return kilobytes * 1024
    }

    /// The best wall time of `repeats` runs; throws when a run fails.
    static func bestRun(_ repeats: Int, _ program: String, _ arguments: [String]) throws -> ProcessRun {
        var best: ProcessRun?
        for _ in 0..<max(1, repeats) {
            let run = try run(program, arguments)
            guard run.status == 0 else { throw BenchError("\(program) \(arguments.joined(separator: " ")) exited with \(run.status)") }
            if best == nil || run.seconds < best!.seconds { best = run }
        }
        return best!
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
