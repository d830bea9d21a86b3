import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A local HTTP receiver for webhook tests: listens on 127.0.0.1 and a free port, keeps each
/// request it gets (headers, body), and answers each with the next status of `statuses` (the last
/// one again once they run out). Stopped by `stop()` or when released. A `trickling` receiver is
/// a hostile one: it answers every request a byte at a time, one every half second, and never
/// ends (each connection on a thread of its own), until the sender gives up or it is stopped.
public final class WebhookReceiver: @unchecked Sendable {
    // Safe: `received` and `statuses` are read and written under `lock`; the descriptor is set once.
    public struct Received: Sendable {
        public let headers: [String: String]
        public let body: [UInt8]
    }

    private let lock = NSCondition()
    private var statuses: [Int]
    private var kept: [Received] = []
    private let descriptor: Int32
    private let trickling: Bool
    private var stopped = false
    public let port: Int

    public init(statuses: [Int] = [200], trickling: Bool = false) throws {
        self.trickling = trickling
        self.statuses = statuses
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            self.port = 0
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        let port = Int(UInt16(bigEndian: address.sin_port))
        self.port = port
        let listener = descriptor
        Thread { [weak self] in
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                guard let self else { close(client); return }
                if self.trickling { Thread { self.answer(client) }.start() } else { self.answer(client) }
            }
        }.start()
    }

    deinit { stop() }

    /// The receiver's address for a webhook (`path` below it).
    public func url(_ path: String = "/hook") -> String { "http://127.0.0.1:\(port)\(path)" }

    public var received: [Received] { lock.withLock { kept } }

    /// Waits until `count` requests have arrived, or `seconds` have passed; whether they arrived.
    public func waitForRequests(_ count: Int, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        lock.lock()
        defer { lock.unlock() }
        while kept.count < count {
            guard lock.wait(until: deadline) else { return kept.count >= count }
        }
        return true
    }

    /// Stops listening, once: a second call (the `deinit` after a test's own) must not close a
    /// descriptor number the process may have given to another file since.
    public func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }

    private func answer(_ client: Int32) {
        defer { close(client) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var headers: [String: String] = [:]
        var bodyStart = -1, length = 0
        while bodyStart < 0 || bytes.count < bodyStart + length {
            let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            bytes += buffer[0..<count]
            if bodyStart < 0, let end = (0..<max(0, bytes.count - 3)).first(where: { bytes[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) }) {
                bodyStart = end + 4
                for line in String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n").dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                length = Int(headers["content-length"] ?? "0") ?? 0
            }
        }
        let status: Int = lock.withLock {
            kept.append(Received(headers: headers, body: Array(bytes[bodyStart..<bodyStart + length])))
            lock.broadcast()
            return statuses.count > 1 ? statuses.removeFirst() : statuses[0]
        }
        if trickling {
            // One byte of a never-ending head every half second, until the sender hangs up.
            while !lock.withLock({ stopped }) {
                let sent = [UInt8(ascii: "H")].withUnsafeBytes { send(client, $0.baseAddress, 1, Int32(MSG_NOSIGNAL)) }
                guard sent == 1 else { return }
                Thread.sleep(forTimeInterval: 0.5)
            }
            return
        }
        let reply = "HTTP/1.1 \(status) X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        _ = Array(reply.utf8).withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}
