import Foundation
import CTLS
#if canImport(Glibc)
import Glibc
#endif

/// One HTTP/1.1 exchange with a host: resolve, connect (over TLS for `https`, through GnuTLS,
/// the certificate verified for the host name against the system's authorities and `authorities`),
/// write a whole request, read the answer to the end of the connection. Blocking: call it off
/// Swift's cooperative pool.
public struct HTTPClientConnection: Sendable {
    public let host: String
    public let port: UInt16
    public let tls: Bool
    /// Certificate authorities (PEM text) trusted besides the system's, or nil.
    public let authorities: String?
    public let timeoutSeconds: Int
    /// The largest answer read.
    public var maximumAnswer = 64 << 20

    public init(host: String, port: UInt16, tls: Bool, authorities: String? = nil, timeoutSeconds: Int) {
        self.host = host
        self.port = port
        self.tls = tls
        self.authorities = authorities
        self.timeoutSeconds = timeoutSeconds
    }

    /// A POST of `body` to `target` (a path with its query) as bytes to send: the request line,
    /// `Host` (an IPv6 address in brackets), `headers`, `Content-Length` and `Connection: close`
    /// (the answer is read to the end of the connection), then the body.
    public func post(_ target: String, headers: [(name: String, value: String)], body: [UInt8]) -> [UInt8] {
        let name = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        var head = "POST \(target) HTTP/1.1\r\nHost: \(name):\(port)\r\n"
        for (field, value) in headers { head += "\(field): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + body
    }

    /// Sends `message` (a request's head and body) and reads the answer to its end. `admit` sees
    /// each address the host resolves to before it is connected to; one it refuses is skipped, and
    /// when it refuses them all the exchange fails with `HTTPClientError.addressRefused`.
    public func exchange(_ message: [UInt8], socket: HTTPClientSocket = HTTPClientSocket(),
                         admit: (NetworkAddress) -> Bool = { _ in true }) throws -> [UInt8] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw HTTPClientError.unreachable("cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var failure = "no address"
        var refused: [String] = []
        var address: UnsafeMutablePointer<addrinfo>? = first
        var descriptor: Int32 = -1
        while let candidate = address {
            address = candidate.pointee.ai_next
            if let checked = NetworkAddress(candidate.pointee.ai_addr), !admit(checked) {
                refused.append(checked.text)
                continue
            }
            let fd = Glibc.socket(candidate.pointee.ai_family, candidate.pointee.ai_socktype, candidate.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            var limit = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            if connect(fd, candidate.pointee.ai_addr, candidate.pointee.ai_addrlen) == 0 {
                descriptor = fd
                break
            }
            failure = String(cString: strerror(errno))
            close(fd)
        }
        guard descriptor >= 0 else {
            if !refused.isEmpty, failure == "no address" {
                throw HTTPClientError.addressRefused("\(host) resolves to \(refused.joined(separator: ", ")), which is not allowed")
            }
            throw HTTPClientError.unreachable("cannot connect to \(host):\(port): \(failure)")
        }
        socket.set(descriptor)
        defer { socket.close() }
        return tls ? try exchangeTLS(message, descriptor: descriptor) : try exchangePlain(message, descriptor: descriptor)
    }

    private func exchangePlain(_ message: [UInt8], descriptor: Int32) throws -> [UInt8] {
        var offset = 0
        while offset < message.count {
            let written = message[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw HTTPClientError.unreachable("the connection to \(host):\(port) failed while sending: \(String(cString: strerror(errno)))") }
            offset += written
        }
        return try readAll { buffer in
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            return count >= 0 ? count : nil
        } failure: { String(cString: strerror(errno)) }
    }

    /// The same exchange inside a TLS session on the connected socket.
    private func exchangeTLS(_ message: [UInt8], descriptor: Int32) throws -> [UInt8] {
        var failure: UnsafePointer<CChar>?
        let pem = Array((authorities ?? "").utf8)
        guard let session = pem.withUnsafeBufferPointer({ sd_tls_client_start(descriptor, host, $0.baseAddress, $0.count, UInt32(timeoutSeconds * 1000), &failure) }) else {
            throw HTTPClientError.tlsFailed("\(host):\(port): \(failure.map { String(cString: $0) } ?? "unknown error")")
        }
        defer { sd_tls_client_end(session) }
        let written = message.withUnsafeBytes { sd_tls_client_send(session, $0.baseAddress, $0.count) }
        guard written == message.count else {
            throw HTTPClientError.unreachable("the connection to \(host):\(port) failed while sending: \(String(cString: sd_tls_client_error(session)))")
        }
        return try readAll { buffer in
            let count = buffer.withUnsafeMutableBytes { sd_tls_client_recv(session, $0.baseAddress, $0.count) }
            return count >= 0 ? count : nil
        } failure: { String(cString: sd_tls_client_error(session)) }
    }

    /// Reads until the connection ends: `receive` fills the buffer and says how much (0 at the
    /// end, nil on an error `failure` describes).
    private func readAll(_ receive: (inout [UInt8]) -> Int?, failure: () -> String) throws -> [UInt8] {
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            guard let count = receive(&buffer) else {
                throw HTTPClientError.unreachable("the connection to \(host):\(port) failed while reading: \(failure())")
            }
            if count == 0 { return answer }
            answer += buffer[0..<count]
            guard answer.count <= maximumAnswer else { throw HTTPClientError.invalidAnswer("is over \(maximumAnswer >> 20) MiB") }
        }
    }
}
