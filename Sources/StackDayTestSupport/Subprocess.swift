import Foundation

/// Runs one of the package's built executables as a subprocess, for tests.
public struct Subprocess: Sendable {
    public struct Result: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String

        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
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

    /// Starts the process without waiting, with stdout and stderr discarded.
    public func start(_ arguments: [String], environment: [String: String] = [:]) throws -> Process {
        let process = configured(arguments, environment: environment)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs to completion and captures both streams; `input` is written to stdin.
    public func run(_ arguments: [String], environment: [String: String] = [:], input: String? = nil) throws -> Result {
        let process = configured(arguments, environment: environment)
        let out = Pipe(), err = Pipe(), stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        // Read stderr concurrently so a full pipe cannot stall the child.
        let errors = DataBox()
        let group = DispatchGroup()
        let errHandle = err.fileHandleForReading
        DispatchQueue.global().async(group: group) { errors.data = errHandle.readDataToEndOfFile() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errors.data, as: UTF8.self))
    }

    private func configured(_ arguments: [String], environment: [String: String]) -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        return process
    }
}

private final class DataBox: @unchecked Sendable {
    var data = Data()
}

/// A fresh temporary folder, removed when the value goes away.
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
