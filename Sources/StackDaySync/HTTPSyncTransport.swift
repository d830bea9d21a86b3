import Dispatch
import Foundation
import CTLS
import StackDay
#if canImport(Glibc)
import Glibc
#endif

/// `POST /v1/sync` over HTTP/1.1 with a bearer token: one connection per request, closed by the
/// server after its answer. `https://` runs it over TLS (1.2 or 1.3, through GnuTLS), the server's
/// certificate verified for its host name against the system's certificate authorities and, when
/// given, a PEM file of one's own (a self-signed home server's).
///
/// Blocking socket calls run on the transport's own queue; cancelling the task shuts the socket
/// down, which ends a call in flight.
public final class HTTPSyncTransport: SyncTransport, @unchecked Sendable {
    // Safe: the counters are read and written under `lock`; everything else is immutable.
    private let host: String
    private let port: UInt16
    private let path: String
    private let token: String
    private let timeout: Int
    private let tls: Bool
    private let caFile: String?
    private let queue = DispatchQueue(label: "stackday.sync.http", attributes: .concurrent)
    private let lock = NSLock()
    private var sent = 0
    private var received = 0

    /// `server` is `https://HOST[:PORT][/PREFIX]` or `http://…`; throws `SyncError.invalidRequest`
    /// for anything else. `caFile` is a PEM file of certificate authorities trusted besides the
    /// system's (for `https://` only).
    public init(server: String, token: String, timeoutSeconds: Int = 60, caFile: String? = nil) throws {
        guard let url = URL(string: server), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty else {
            throw SyncError.invalidRequest("needs a server URL of the form https://HOST[:PORT] (or http:// on a trusted network), not \"\(server)\"")
        }
        if caFile != nil, scheme != "https" { throw SyncError.invalidRequest("a certificate authority applies to an https:// server only") }
        tls = scheme == "https"
        self.caFile = caFile
        // No token: a transport that only pairs (`pair(code:name:)`).
        guard token.isEmpty || Self.isToken(token) else {
            throw SyncError.invalidRequest("needs a token of printable ASCII without spaces")
        }
        self.host = host
        port = UInt16(url.port ?? (tls ? 443 : 80))
        let prefix = url.path.hasSuffix("/") ? String(url.path.dropLast()) : url.path
        path = prefix + "/v1/sync"
        self.token = token
        timeout = timeoutSeconds
        address = "\(scheme)://\(host.lowercased()):\(port)\(prefix)"
        peer = address + " " + String(SHA256(of: Array(token.utf8)).description.prefix(16))
        self.prefix = prefix
    }

    /// The server's URL written canonically (`HTTP://Host/` is `http://host:80`): what a device
    /// keeps its paired token under.
    public let address: String
    private let prefix: String

    /// Exchanges a pairing code for this device's own token (`POST /v1/devices/pair`, no token
    /// sent), blocking the calling thread: call it off Swift's cooperative pool (a command line's
    /// main thread). Throws `SyncError.refused` with `pairing_failed` for a code that is unknown,
    /// used or expired.
    public func pair(code: String, name: String) throws -> String {
        let body = JSONValue.object(["code": .string(code), "name": .string(name)]).jsonBytes
        var head = "POST \(prefix)/v1/devices/pair HTTP/1.1\r\nHost: \(host):\(port)\r\n"
        head += "Content-Type: application/json\r\nAccept: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let answer = try exchange(Array(head.utf8) + body, socket: SocketBox())
        let (status, json, text) = try Self.parse(answer)
        guard status == 201, let token = json?.objectValue?["token"]?.stringValue, Self.isToken(token) else {
            throw Self.refusal(status: status, json: json, text: text)
        }
        return token
    }

    /// What a device keys its positions with this server by: the URL as written canonically
    /// (`HTTP://Host:80/` is `http://host:80`) and a digest of the token, so that another user
    /// on the same server starts from the beginning. Never the token itself.
    public let peer: String

    /// Whether the exchange runs over TLS (`https://`).
    public var isEncrypted: Bool { tls }

    /// Whether the server is this machine: `localhost`, `127.0.0.0/8` or `::1`.
    public var isLoopback: Bool {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return name == "localhost" || name.hasSuffix(".localhost") || name.hasPrefix("127.") || name == "::1"
    }

    /// Whether `token` can go in an `Authorization` header: printable ASCII without spaces.
    public static func isToken(_ token: String) -> Bool {
        !token.isEmpty && token.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    /// Bytes sent and received so far, headers included.
    public var bytes: (sent: Int, received: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (sent, received)
    }

    private func count(sent: Int, received: Int) {
        lock.lock()
        defer { lock.unlock() }
        self.sent += sent
        self.received += received
    }

    public func send(_ request: SyncRequest) async throws -> SyncResponse {
        let body = request.json.jsonBytes
        var head = "POST \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nAuthorization: Bearer \(token)\r\n"
        head += "Content-Type: application/json\r\nAccept: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let message = Array(head.utf8) + body
        let socket = SocketBox()
        let answer: [UInt8] = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                queue.async { [self] in
                    continuation.resume(with: Result { try exchange(message, socket: socket) })
                }
            }
        } onCancel: {
            socket.shutDown()
        }
        try Task.checkCancellation()
        count(sent: message.count, received: answer.count)
        return try Self.response(answer)
    }

    /// Connects, writes `message`, reads to the end.
    private func exchange(_ message: [UInt8], socket: SocketBox) throws -> [UInt8] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw SyncError.unreachable("cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var failure = "no address"
        var address: UnsafeMutablePointer<addrinfo>? = first
        var descriptor: Int32 = -1
        while let candidate = address {
            let fd = Glibc.socket(candidate.pointee.ai_family, candidate.pointee.ai_socktype, candidate.pointee.ai_protocol)
            if fd >= 0 {
                var limit = timeval(tv_sec: timeout, tv_usec: 0)
                setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
                setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
                if connect(fd, candidate.pointee.ai_addr, candidate.pointee.ai_addrlen) == 0 {
                    descriptor = fd
                    break
                }
                failure = String(cString: strerror(errno))
                close(fd)
            }
            address = candidate.pointee.ai_next
        }
        guard descriptor >= 0 else { throw SyncError.unreachable("cannot connect to \(host):\(port): \(failure)") }
        socket.set(descriptor)
        defer { socket.close() }
        if tls { return try exchangeTLS(message, descriptor: descriptor) }
        var offset = 0
        while offset < message.count {
            let written = message[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw SyncError.unreachable("the connection to \(host):\(port) failed while sending: \(String(cString: strerror(errno)))") }
            offset += written
        }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { break }
            guard count > 0 else { throw SyncError.unreachable("the connection to \(host):\(port) failed while reading: \(String(cString: strerror(errno)))") }
            answer += buffer[0..<count]
            guard answer.count <= 64 << 20 else { throw SyncError.invalidAnswer("is over 64 MiB") }
        }
        return answer
    }

    /// The same exchange inside a TLS session on the connected socket.
    private func exchangeTLS(_ message: [UInt8], descriptor: Int32) throws -> [UInt8] {
        var failure: UnsafePointer<CChar>?
        guard let session = sd_tls_client_start(descriptor, host, caFile, UInt32(timeout * 1000), &failure) else {
            throw SyncError.tlsFailed("\(host):\(port): \(failure.map { String(cString: $0) } ?? "unknown error")")
        }
        defer { sd_tls_client_end(session) }
        let written = message.withUnsafeBytes { sd_tls_client_send(session, $0.baseAddress, $0.count) }
        guard written == message.count else {
            throw SyncError.unreachable("the connection to \(host):\(port) failed while sending: \(String(cString: sd_tls_client_error(session)))")
        }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { sd_tls_client_recv(session, $0.baseAddress, $0.count) }
            if count == 0 { break }
            guard count > 0 else {
                throw SyncError.unreachable("the connection to \(host):\(port) failed while reading: \(String(cString: sd_tls_client_error(session)))")
            }
            answer += buffer[0..<count]
            guard answer.count <= 64 << 20 else { throw SyncError.invalidAnswer("is over 64 MiB") }
        }
        return answer
    }

    /// The answer's status and JSON body: a sync answer for 200, the server's error otherwise.
    static func response(_ answer: [UInt8]) throws -> SyncResponse {
        let (status, json, text) = try parse(answer)
        guard status == 200 else { throw refusal(status: status, json: json, text: text) }
        guard let json else { throw SyncError.invalidAnswer("is not JSON") }
        return try SyncResponse(json: json)
    }

    /// A server's error answer as the error it names.
    private static func refusal(status: Int, json: JSONValue?, text: String) -> SyncError {
        let error = json?.objectValue?["error"]?.objectValue
        return SyncError.refused(status: status, code: error?["code"]?.stringValue ?? "http_\(status)",
                                 message: error?["message"]?.stringValue ?? String(text.prefix(200)))
    }

    /// An HTTP answer's status, its body as JSON when it is, and as text.
    private static func parse(_ answer: [UInt8]) throws -> (status: Int, json: JSONValue?, text: String) {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, answer.count - 3)).first(where: { Array(answer[$0..<$0 + 4]) == separator }) else {
            throw SyncError.invalidAnswer("is not an HTTP response")
        }
        let head = String(decoding: answer[..<end], as: UTF8.self)
        var body = Array(answer[(end + 4)...])
        let lines = head.components(separatedBy: "\r\n")
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else { throw SyncError.invalidAnswer("has no status line") }
        let headers = lines.dropFirst().map { $0.lowercased() }
        if headers.contains(where: { $0.hasPrefix("transfer-encoding:") && $0.contains("chunked") }) { body = try dechunk(body) }
        let text = String(decoding: body, as: UTF8.self)
        return (status, try? JSONValue(parsing: text), text)
    }

    private static func dechunk(_ bytes: [UInt8]) throws -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard let lineEnd = bytes[index...].firstIndex(of: 13), lineEnd + 1 < bytes.count else { throw SyncError.invalidAnswer("has a broken chunk") }
            let sizeText = String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { throw SyncError.invalidAnswer("has a broken chunk") }
            if size == 0 { break }
            let start = lineEnd + 2
            guard start + size <= bytes.count else { throw SyncError.invalidAnswer("has a broken chunk") }
            out += bytes[start..<start + size]
            index = start + size + 2
        }
        return out
    }
}

/// The socket of one exchange, for the cancellation handler to shut down from another thread.
private final class SocketBox: @unchecked Sendable {
    // Safe: `descriptor` and `cancelled` are read and written under `lock`.
    private let lock = NSLock()
    private var descriptor: Int32 = -1
    private var cancelled = false

    func set(_ fd: Int32) {
        lock.lock()
        defer { lock.unlock() }
        descriptor = fd
        if cancelled { Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
    }

    func shutDown() {
        lock.lock()
        defer { lock.unlock() }
        cancelled = true
        if descriptor >= 0 { Glibc.shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    func close() {
        lock.lock()
        defer { lock.unlock() }
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }
}
