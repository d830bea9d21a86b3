import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A minimal HTTP/1.1 client for tests: one request per connection to 127.0.0.1, raw bytes in
/// and out, so tests can also send what a well-behaved client never would.
public struct HTTPClient: Sendable {
    public struct Response: Sendable {
        public let status: Int
        public let headers: [String: String]
        public let body: String
    }

    public let port: Int
    public var timeout: TimeInterval = 20
    /// The loopback address connections come from (127.0.0.1 unless set): a second client, as
    /// far as per-address limits go.
    public var sourceAddress: String?

    public init(port: Int, sourceAddress: String? = nil) {
        self.port = port
        self.sourceAddress = sourceAddress
    }

    /// Sends one request with `Connection: close` and reads the whole answer.
    public func send(_ method: String, _ path: String, token: String? = nil, body: String? = nil, headers: [String: String] = [:]) throws -> Response {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
        let raw = try exchange(Array((head + "\r\n" + (body ?? "")).utf8))
        return try Self.parse(raw)
    }

    /// Writes `bytes` on a new connection and reads until the server closes it.
    public func exchange(_ bytes: [UInt8]) throws -> [UInt8] {
        let socket = try connect()
        defer { close(socket) }
        try write(socket, bytes)
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count > 0 { answer += buffer[0..<count] } else if count == 0 { break } else { throw HTTPClientError("read failed: errno \(errno)") }
        }
        return answer
    }

    /// A connected socket with the client's timeout on reads.
    public func connect() throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw HTTPClientError("socket failed") }
        var wait = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        if let sourceAddress {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(sourceAddress)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                close(socket)
                throw HTTPClientError("cannot bind to \(sourceAddress): errno \(errno)")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            throw HTTPClientError("cannot connect to 127.0.0.1:\(port): errno \(errno)")
        }
        return socket
    }

    public func write(_ socket: Int32, _ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw HTTPClientError("write failed: errno \(errno)") }
            sent += count
        }
    }

    /// Status, headers (names lowercased) and body of one HTTP/1.1 response (a body of
    /// `Content-Length` bytes, or the rest).
    public static func parse(_ raw: [UInt8]) throws -> Response {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0...max(0, raw.count - 4)).first(where: { raw.count >= 4 && Array(raw[$0..<$0 + 4]) == separator }) else {
            throw HTTPClientError("no complete response: \(String(decoding: raw, as: UTF8.self))")
        }
        let lines = String(decoding: raw[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw HTTPClientError("bad status line: \(lines[0])") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(raw[(end + 4)...])
        if let length = headers["content-length"].flatMap(Int.init), length <= body.count { body = Array(body[..<length]) }
        return Response(status: status, headers: headers, body: String(decoding: body, as: UTF8.self))
    }
}

public struct HTTPClientError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
