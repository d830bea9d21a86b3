import Foundation

/// Runs one of the package's built executables (or any program) as a subprocess, for tests.
public struct Subprocess: Sendable {
    public struct Result: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
        /// Whether a signal ended the process (`status` is then the signal's number).
        public let signaled: Bool
        /// Whether the process outlived its timeout and was terminated.
        public let timedOut: Bool

        public init(status: Int32, stdout: String, stderr: String, signaled: Bool = false, timedOut: Bool = false) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
            self.signaled = signaled
            self.timedOut = timedOut
        }
    }

    /// The folder holding the built products (the test bundle sits in or beside it).
    public static let productsDirectory: URL = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("stackday").path) { return folder }
            folder = folder.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }()

    public let executable: URL

    public init(product: String) {
        executable = Self.productsDirectory.appendingPathComponent(product)
    }

    public init(executable: URL) {
        self.executable = executable
    }

    /// Starts the process without waiting, with stdout and stderr discarded.
    public func start(_ arguments: [String], environment: [String: String] = [:]) throws -> Process {
        let process = configured(arguments, environment: environment, inheritEnvironment: true)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs to completion and captures both streams.
    ///
    /// `environment` is laid over this process's own (or is the whole environment when
    /// `inheritEnvironment` is false); `input` is written to stdin; past `timeout` seconds the
    /// process is terminated and the result says so.
    public func run(
        _ arguments: [String], environment: [String: String] = [:], inheritEnvironment: Bool = true,
        currentDirectory: URL? = nil, input: String? = nil, timeout: Double? = nil
    ) throws -> Result {
        let process = configured(arguments, environment: environment, inheritEnvironment: inheritEnvironment)
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let out = Pipe(), err = Pipe(), stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        // Both streams are drained in the background, so a full pipe cannot stall the child.
        let output = Drain(out.fileHandleForReading), errors = Drain(err.fileHandleForReading)
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        var timedOut = false
        if let timeout {
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning, Date() < deadline { usleep(5_000) }
            if process.isRunning {
                timedOut = true
                process.terminate()
            }
        }
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: output.text(), stderr: errors.text(),
                      signaled: process.terminationReason == .uncaughtSignal && !timedOut, timedOut: timedOut)
    }

    private func configured(_ arguments: [String], environment: [String: String], inheritEnvironment: Bool) -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var merged = inheritEnvironment ? ProcessInfo.processInfo.environment : [:]
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        return process
    }
}

/// Reads a pipe to its end on a background queue.
///
/// `@unchecked Sendable`: `data` is written once, on that queue, and read only after the group's
/// wait, which orders the write before the read.
private final class Drain: @unchecked Sendable {
    private var data = Data()
    private let group = DispatchGroup()

    init(_ handle: FileHandle) {
        DispatchQueue.global().async(group: group) { [self] in data = handle.readDataToEndOfFile() }
    }

    func text() -> String {
        group.wait()
        return String(decoding: data, as: UTF8.self)
    }
}

/// A fresh temporary folder, removed when the value goes away.
///
/// `@unchecked Sendable`: its one stored property is immutable.
public final class TemporaryFolder: @unchecked Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("stackday-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
