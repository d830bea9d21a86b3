import CHTTP
import CTLS
import StackDay
import Foundation

/// An HTTP/1.1 server (GNU libmicrohttpd: one epoll thread for every connection, keep-alive, idle
/// timeouts) that answers every request with `handler`, called on one of the server's worker
/// threads: a complete request is suspended in libmicrohttpd, queued, answered by the next free
/// worker and resumed, so requests are served in arrival order whichever connection they came on.
/// Never on Swift's cooperative pool: a handler may block on a store or a Lua state.
///
/// `@unchecked Sendable`: the C server is only started, queried and stopped through functions
/// libmicrohttpd allows from any thread; the handler box is immutable.
public final class HTTPServer: @unchecked Sendable {
    private let server: OpaquePointer
    private let box: Unmanaged<HandlerBox>

    /// The port the server listens on.
    public let port: Int

    /// The connections open now (idle keep-alive ones included).
    public var connections: Int { Int(sd_http_connections(server)) }

    /// Starts listening; throws `HTTPServerError` when the address is bad or taken, or
    /// libmicrohttpd cannot be loaded.
    public init(options: HTTPServerOptions, handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws {
        var address = in_addr()
        guard inet_pton(AF_INET, options.host, &address) == 1 else {
            throw HTTPServerError(message: "'\(options.host)' is not an IPv4 address")
        }
        guard (0...65535).contains(options.port) else { throw HTTPServerError(message: "port \(options.port) is out of range") }
        var settings = sd_http_options(
            address: address.s_addr, port: UInt16(options.port), threads: UInt32(max(1, options.threads)), max_body: options.maxBody,
            idle_timeout: UInt32(max(1, options.idleTimeout)), connection_limit: UInt32(max(1, options.connectionLimit)),
            connection_memory: options.connectionMemory, per_address_limit: UInt32(max(0, options.perAddressLimit)),
            header_timeout: UInt32(max(1, options.headerTimeout)), per_client_workers: UInt32(max(1, options.workersPerClient)),
            per_client_queue: UInt32(max(1, options.perClientQueue)), hard_deadline: UInt32(max(0, options.hardDeadline)),
            resolve_client: nil, resolve_context: nil, session_cookie: nil, tls: options.tls ? 1 : 0,
            min_body_rate: UInt32(max(0, options.minBodyRate))
        )
        if options.tls, sd_tls_server_loaded() == 0 { throw HTTPServerError(message: "TLS needs a certificate: load one first") }
        let box = Unmanaged.passRetained(HandlerBox(handler, clientKey: options.clientKey))
        if options.clientKey != nil {
            settings.resolve_client = clientTrampoline
            settings.resolve_context = box.toOpaque()
        }
        let cookieName = options.sessionCookie.map { strdup($0) } ?? nil
        defer { free(cookieName) }
        settings.session_cookie = UnsafePointer(cookieName)
        var failure: UnsafePointer<CChar>?
        guard let server = sd_http_start(&settings, httpTrampoline, box.toOpaque(), &failure) else {
            box.release()
            throw HTTPServerError(message: failure.map { String(cString: $0) } ?? "cannot start the server")
        }
        self.server = server
        self.box = box
        port = Int(sd_http_port(server))
    }

    /// Loads the certificate chain and key (PEM files) every TLS server of the process serves: at
    /// start, and again to replace it (new handshakes take the new one; open connections keep
    /// theirs). Throws, naming the file, when one cannot be read or the key is not the
    /// certificate's; the certificate served before stays.
    /// - Returns: the SHA-256 fingerprint of the certificate now served.
    @discardableResult
    public static func loadCertificate(certificate: String, key: String) throws -> String {
        var failure: UnsafePointer<CChar>?
        guard sd_tls_server_load(certificate, key, &failure) == 0 else {
            throw HTTPServerError(message: failure.map { String(cString: $0) } ?? "cannot load the certificate")
        }
        var digest = [CChar](repeating: 0, count: 65)
        _ = sd_tls_server_fingerprint(&digest)
        return String(decoding: digest.prefix(64).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Stops accepting connections; requests already received go on.
    public func quiesce() { sd_http_quiesce(server) }

    /// How many requests are being answered right now.
    public var inFlight: Int { Int(sd_http_in_flight(server)) }

    /// Requests given up on because they held a worker past the hard deadline.
    public var abandoned: Int { Int(sd_http_abandoned(server)) }

    /// Stops accepting, waits up to `grace` seconds for requests in flight, then closes every
    /// connection and frees the server. Returns false when a worker was still busy at the end: the
    /// server is then left as it is, for the process to exit over it. Call once.
    @discardableResult
    public func stop(grace: TimeInterval = 10) -> Bool {
        quiesce()
        let deadline = Date().addingTimeInterval(grace)
        while inFlight > 0, Date() < deadline { usleep(10_000) }
        let left = max(0, deadline.timeIntervalSinceNow)
        guard sd_http_stop(server, UInt32(left * 1000) + 100) == 0 else { return false }
        box.release()
        return true
    }
}

/// The handler and the client resolver, kept alive for the C server.
final class HandlerBox: Sendable {
    let handler: @Sendable (HTTPRequest) -> HTTPResponse
    let clientKey: (@Sendable (String) -> UInt64)?

    init(_ handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse, clientKey: (@Sendable (String) -> UInt64)?) {
        self.handler = handler
        self.clientKey = clientKey
    }
}

/// The C server's question "whose is this credential?", answered by the box's resolver.
private func clientTrampoline(_ context: UnsafeMutableRawPointer?, _ kind: Int32, _ credential: UnsafePointer<CChar>?) -> UInt64 {
    guard let context, let credential else { return 0 }
    let box = Unmanaged<HandlerBox>.fromOpaque(context).takeUnretainedValue()
    return box.clientKey?(String(cString: credential)) ?? 0
}

/// Called by the C server on its threads: the request in, the answer out (malloc'd for C to free).
private let httpTrampoline: sd_http_handler = { context, request, response in
    guard let context, let request, let response else { return }
    let box = Unmanaged<HandlerBox>.fromOpaque(context).takeUnretainedValue()
    let raw = request.pointee
    func text(_ pointer: UnsafePointer<CChar>?) -> String? { pointer.map { String(cString: $0) } }
    var query: [(key: String, value: String)] = []
    for index in 0..<Int(raw.query_count) {
        query.append((text(raw.query_keys[index]) ?? "", text(raw.query_values[index]) ?? ""))
    }
    let body = raw.body_length > 0 ? Array(UnsafeRawBufferPointer(start: raw.body, count: raw.body_length)) : []
    var incoming = HTTPRequest(
        method: text(raw.method) ?? "", path: text(raw.path) ?? "", authorization: text(raw.authorization), cookie: text(raw.cookie),
        contentType: text(raw.content_type), query: query, body: body, bodyTooLarge: raw.body_too_large != 0
    )
    incoming.origin = text(raw.origin)
    incoming.host = text(raw.host)
    incoming.acceptLanguage = text(raw.accept_language)
    incoming.ifNoneMatch = text(raw.if_none_match)
    incoming.forwardedProto = text(raw.forwarded_proto)
    incoming.requestID = text(raw.request_id)
    incoming.preflightMethod = text(raw.preflight_method)
    incoming.forwardedFor = text(raw.forwarded_for)
    incoming.idempotencyKey = text(raw.idempotency_key)
    incoming.address = text(raw.address) ?? ""
    // A write commits only while the request has not been given up at the hard deadline.
    let answer = CommitGate.withClaim({ sd_http_claim_commit() != 0 }) { box.handler(incoming) }
    response.pointee.status = UInt32(answer.status)
    response.pointee.content_type = strdup(answer.contentType)
    response.pointee.set_cookie = answer.setCookie.flatMap { strdup($0) }
    response.pointee.location = answer.location.flatMap { strdup($0) }
    // Header lines: a name or value with a line break in it is left out, never sent split.
    let lines = answer.headers.filter { !($0.name + $0.value).contains(where: \.isNewline) }.map { "\($0.name): \($0.value)" }
    response.pointee.headers = lines.isEmpty ? nil : strdup(lines.joined(separator: "\n"))
    if let memory = malloc(max(1, answer.body.count)) {
        answer.body.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { memory.copyMemory(from: base, byteCount: bytes.count) }
        }
        response.pointee.body = memory.assumingMemoryBound(to: CChar.self)
        response.pointee.body_length = answer.body.count
    }
}
