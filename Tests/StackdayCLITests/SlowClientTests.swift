import Foundation
import Testing
import StackDayTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Slow clients at the HTTP edge: a request's head has a total deadline however its bytes
/// trickle, and a full connection table sheds the connection that has waited longest for its head
/// instead of refusing a new client.
@Suite("slow clients", .serialized)
struct SlowClientTests {
    /// A TCP connection to 127.0.0.1:`port` from the loopback address `source` (127.0.0.0/8 is all
    /// this machine's), closed when the value goes away.
    final class Connection {
        let fd: Int32

        init?(source: String, port: Int) {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { return nil }
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, source, &local.sin_addr)
            var remote = sockaddr_in()
            remote.sin_family = sa_family_t(AF_INET)
            remote.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr)
            let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            let connected = withUnsafePointer(to: &remote) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            guard bound == 0, connected == 0 else { close(fd); return nil }
            var limit = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit { close(fd) }

        @discardableResult
        func send(_ text: String) -> Bool {
            let bytes = Array(text.utf8)
            return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
        }

        /// Whether the server closed the connection (a read answers the end, or an error).
        var isClosed: Bool {
            var byte: UInt8 = 0
            return recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
        }

        /// The first line of the answer, read until the server closes.
        func statusLine() -> String {
            var answer: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count <= 0 { break }
                answer += buffer[0..<count]
            }
            return String(decoding: answer, as: UTF8.self).components(separatedBy: "\r\n").first ?? ""
        }
    }

    func serve(_ arguments: [String]) throws -> (CLIFixture, ServerProcess) {
        let cli = try CLIFixture()
        let server = try ServerProcess(executable: stackday.executable, arguments: ["--db", cli.db], serveArguments: arguments)
        return (cli, server)
    }

    @Test("a head that trickles a byte every half second is closed at the header deadline, not kept by its activity")
    func trickle() throws {
        let (_, server) = try serve(["--header-timeout", "2"])
        defer { server.stop() }
        let slow = try #require(Connection(source: "127.0.0.2", port: server.port))
        let started = Date()
        var closedAfter: TimeInterval?
        for character in "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + String(repeating: "a", count: 40) {
            slow.send(String(character))
            usleep(250_000)
            if slow.isClosed { closedAfter = Date().timeIntervalSince(started); break }
        }
        let after = try #require(closedAfter, "still open after \(Date().timeIntervalSince(started)) s")
        #expect(after >= 1.9 && after < 3.5, "closed after \(after) s")
    }

    @Test("a body that trickles below the minimum rate is closed once the header timeout has passed; one at the rate is answered")
    func slowBody() throws {
        let (cli, server) = try serve(["--header-timeout", "2", "--min-body-rate", "100"])
        defer { server.stop() }
        let token = try cli.run(["user", "add", "ana"]).stdout.trimmingCharacters(in: .newlines)
        let body = #"{"name":"walk"}"#
        let head = "POST /v1/habits HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n"
        let slow = try #require(Connection(source: "127.0.0.3", port: server.port))
        slow.send(head)
        let started = Date()
        var closedAfter: TimeInterval?
        for _ in 0..<40 {
            // 10 bytes every 250 ms: 40 bytes a second, under the 100 asked for.
            slow.send(String(repeating: " ", count: 10))
            usleep(250_000)
            if slow.isClosed { closedAfter = Date().timeIntervalSince(started); break }
        }
        let after = try #require(closedAfter, "still open after \(Date().timeIntervalSince(started)) s")
        #expect(after >= 1.9 && after < 4, "closed after \(after) s")
        #expect(try cli.run(["--user", "ana", "habit", "list", "--json"]).stdout.contains("walk") == false, "nothing was written")

        // The same body at 400 bytes a second, past the header timeout: answered.
        let steady = try #require(Connection(source: "127.0.0.4", port: server.port))
        let padded = body + String(repeating: " ", count: 1200 - body.utf8.count)
        steady.send(head.replacingOccurrences(of: "Content-Length: 4000", with: "Content-Length: 1200").replacingOccurrences(of: "HTTP/1.1\r\n", with: "HTTP/1.1\r\nConnection: close\r\n"))
        for start in stride(from: 0, to: 1200, by: 100) {
            steady.send(String(padded.dropFirst(start).prefix(100)))
            usleep(250_000)
        }
        #expect(steady.statusLine() == "HTTP/1.1 201 Created")
    }

    @Test("16 addresses × 64 slow connections fill the table; a new client is still answered in under a second")
    func fullTable() throws {
        let (_, server) = try serve(["--header-timeout", "30"])
        defer { server.stop() }
        var slow: [Connection] = []
        for address in 2...17 {
            for _ in 0..<64 {
                guard let connection = Connection(source: "127.0.0.\(address)", port: server.port) else { continue }
                connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n")
                slow.append(connection)
            }
        }
        #expect(slow.count == 1024)
        usleep(300_000)
        let started = Date()
        let fresh = try #require(Connection(source: "127.0.0.100", port: server.port))
        fresh.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let line = fresh.statusLine()
        let elapsed = Date().timeIntervalSince(started)
        #expect(line == "HTTP/1.1 200 OK" && elapsed < 1, "\(line) after \(elapsed) s")
        #expect(slow.contains { $0.isClosed }, "a waiting connection made room")
    }
}
