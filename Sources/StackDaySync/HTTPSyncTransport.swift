import Dispatch
import Foundation
import StackDay
import StackDayHTTPClient

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
    /// Certificate authorities (PEM text) trusted besides the system's, or nil.
    public let authorities: String?
    private let queue = DispatchQueue(label: "stackday.sync.http", attributes: .concurrent)
    private let lock = NSLock()
    private var sent = 0
    private var received = 0

    /// `server` is `https://HOST[:PORT][/PREFIX]` or `http://…`; throws `SyncError.invalidRequest`
    /// for anything else. `authorities` is PEM text of certificate authorities trusted besides the
    /// system's (for `https://` only).
    public init(server: String, token: String, timeoutSeconds: Int = 60, authorities: String? = nil) throws {
        guard let url = URL(string: server), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty else {
            throw SyncError.invalidRequest("needs a server URL of the form https://HOST[:PORT] (or http:// on a trusted network), not \"\(server)\"")
        }
        if authorities != nil, scheme != "https" { throw SyncError.invalidRequest("a certificate authority applies to an https:// server only") }
        tls = scheme == "https"
        self.authorities = authorities
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
        let message = connection.post(prefix + "/v1/devices/pair", headers: Self.json, body: body)
        let answer = try exchange(message, socket: HTTPClientSocket())
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
        let message = connection.post(path, headers: [("Authorization", "Bearer \(token)")] + Self.json, body: request.json.jsonBytes)
        let socket = HTTPClientSocket()
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

    /// The server's address, as each exchange connects to it.
    private var connection: HTTPClientConnection {
        HTTPClientConnection(host: host, port: port, tls: tls, authorities: authorities, timeoutSeconds: timeout)
    }

    /// What a JSON request says of its body and the answer it takes.
    private static let json: [(name: String, value: String)] = [("Content-Type", "application/json"), ("Accept", "application/json")]

    /// Connects, writes `message`, reads to the end; the client's failures as sync's.
    private func exchange(_ message: [UInt8], socket: HTTPClientSocket) throws -> [UInt8] {
        do {
            return try connection.exchange(message, socket: socket)
        } catch let failure as HTTPClientError {
            switch failure {
            case .unreachable(let message), .addressRefused(let message): throw SyncError.unreachable(message)
            case .tlsFailed(let message): throw SyncError.tlsFailed(message)
            case .invalidAnswer(let message): throw SyncError.invalidAnswer(message)
            }
        }
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
        let parsed: HTTPClientAnswer
        do {
            parsed = try HTTPClientAnswer(parsing: answer)
        } catch HTTPClientError.invalidAnswer(let message) {
            throw SyncError.invalidAnswer(message)
        }
        return (parsed.status, try? JSONValue(parsing: parsed.text), parsed.text)
    }
}
