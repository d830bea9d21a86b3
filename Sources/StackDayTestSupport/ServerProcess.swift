import Foundation

/// A `stackday serve` of the test's own on 127.0.0.1 and a free port, its stderr (the access log)
/// in a file; stopped with SIGTERM by `stop()` or when the value goes away.
public final class ServerProcess: @unchecked Sendable {
    public let process: Process
    public let port: Int
    private let logFile: String
    private let folder: TemporaryFolder
    /// Whatever must live as long as the server (the fixture whose folder holds its database).
    public var keepAlive: AnyObject?

    /// Starts `executable serve --listen 127.0.0.1:0` with `arguments` before `serve` (the store,
    /// `--now`) and `serveArguments` after it, and waits until it listens.
    public init(executable: URL, arguments: [String], serveArguments: [String] = [], environment: [String: String] = [:]) throws {
        folder = try TemporaryFolder()
        logFile = folder.path("serve.log")
        _ = FileManager.default.createFile(atPath: logFile, contents: nil)
        process = Process()
        process.executableURL = executable
        process.arguments = arguments + ["serve", "--listen", "127.0.0.1:0"] + serveArguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logFile))
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        var found: Int?
        while Date() < deadline, process.isRunning {
            let text = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
            if let range = text.range(of: "listening on http://127.0.0.1:") ?? text.range(of: "listening on https://127.0.0.1:") {
                found = Int(text[range.upperBound...].prefix { $0.isNumber })
                if found != nil { break }
            }
            usleep(20_000)
        }
        guard let found else {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            throw HTTPClientError("stackday serve did not start: \((try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "")")
        }
        port = found
    }

    deinit { stop() }

    public var client: HTTPClient { HTTPClient(port: port) }

    /// What the server wrote to stderr so far.
    public func log() -> String { (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "" }

    /// SIGTERM, then the exit status (SIGKILL after `timeout` seconds, answering nil).
    @discardableResult
    public func stop(timeout: TimeInterval = 20) -> Int32? {
        guard process.isRunning else { return process.terminationStatus }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return process.terminationStatus
    }
}
