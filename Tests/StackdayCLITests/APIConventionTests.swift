import Foundation
import Testing
import StackDayTestSupport

/// What a client developer expects of the API beyond its answers: conditional requests,
/// `Location`, request ids and the access log, paging, throttling and CORS.
@Suite("API conventions")
struct APIConventionTests {
    func serve(_ arguments: [String] = []) throws -> (CLIFixture, ServerProcess, String) {
        let (cli, server, ana, _) = try ServeCommandTests().serve(arguments)
        #expect(try server.client.send("POST", "/v1/habits", token: ana, body: #"{"name":"water","goal":8,"start":"2026-10-01"}"#).status == 201)
        return (cli, server, ana)
    }

    @Test("X-Request-Id: the client's when reasonable, else a new one; the access line has time, address, id, method, path, status, bytes, duration; --log-format json")
    func requestIDs() throws {
        let (_, server, ana) = try serve(["--log-format", "json"])
        defer { server.stop() }
        let client = server.client
        let echoed = try client.send("GET", "/v1/today", token: ana, headers: ["X-Request-Id": "trace-42.a_b"])
        #expect(echoed.headers["x-request-id"] == "trace-42.a_b")
        let replaced = try client.send("GET", "/v1/today?token=secret", token: ana, headers: ["X-Request-Id": "bad id, ;!"])
        let fresh = try #require(replaced.headers["x-request-id"])
        #expect(fresh != "bad id" && fresh.count == 16)
        #expect(try client.send("GET", "/v1/nothing", token: ana).headers["x-request-id"] != nil)
        // An answer without a version is kept by no one: the server's default Cache-Control.
        #expect(try client.send("POST", "/v1/habits", token: ana, body: #"{"name":"x"}"#).headers["cache-control"] == "no-store")
        // The access log is written after the answer: wait for the line, not for a time.
        let logged = Date().addingTimeInterval(10)
        while !server.log().contains("\"trace-42.a_b\""), Date() < logged { usleep(10_000) }
        let lines = server.log().split(separator: "\n").filter { $0.hasPrefix("{") }
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let line = try #require(objects.first { $0["requestId"] as? String == "trace-42.a_b" })
        #expect(line["method"] as? String == "GET" && line["path"] as? String == "/v1/today" && line["status"] as? Int == 200)
        #expect(line["address"] as? String == "127.0.0.1" && line["user"] as? String == "ana" && (line["bytes"] as? Int ?? 0) > 0 && line["ms"] is Int)
        #expect((line["time"] as? String)?.hasSuffix("Z") == true)
        #expect(!server.log().contains("secret"), "the query reached the log")
    }

    @Test("after 10 failed authentications in a minute an address waits (429, Retry-After), even with a right token; another address does not; --rate-limit caps a user")
    func throttling() throws {
        let (_, server, ana) = try serve(["--rate-limit", "30"])
        defer { server.stop() }
        let guesser = HTTPClient(port: server.port, sourceAddress: "127.0.0.7")
        for _ in 0..<10 {
            #expect(try guesser.send("GET", "/v1/today", token: "sd_" + String(repeating: "1", count: 64)).status == 401)
        }
        let held = try guesser.send("GET", "/v1/today", token: ana)
        #expect(held.status == 429 && held.body.contains("too_many_requests") && Int(held.headers["retry-after"] ?? "") ?? 0 >= 1, "\(held.status) \(held.headers)")
        #expect(try guesser.send("POST", "/session", body: "token=\(ana)").status == 429)
        let other = HTTPClient(port: server.port, sourceAddress: "127.0.0.8")
        #expect(try other.send("GET", "/v1/today", token: ana).status == 200)
        // 30 a minute: the habit's creation and that read were two; 28 more, then 429.
        var statuses: [Int] = []
        for _ in 0..<31 { statuses.append(try other.send("GET", "/v1/today", token: ana).status) }
        #expect(statuses.prefix(28).allSatisfy { $0 == 200 } && statuses.dropFirst(28).allSatisfy { $0 == 429 }, "\(statuses)")
    }

    @Test("X-Forwarded-For is the client's address only from a --trusted-proxy: in the log and for the throttle")
    func trustedProxy() throws {
        let (_, server, ana) = try serve(["--trusted-proxy", "127.0.0.1", "--log-format", "json"])
        defer { server.stop() }
        let proxy = server.client
        #expect(try proxy.send("GET", "/v1/today", token: ana, headers: ["X-Forwarded-For": "198.51.100.1, 203.0.113.9", "X-Request-Id": "via-proxy"]).status == 200)
        for _ in 0..<10 { _ = try proxy.send("GET", "/v1/today", token: "sd_" + String(repeating: "2", count: 64), headers: ["X-Forwarded-For": "203.0.113.66"]) }
        #expect(try proxy.send("GET", "/v1/today", token: ana, headers: ["X-Forwarded-For": "203.0.113.66"]).status == 429)
        // Another client behind the same proxy is not held.
        #expect(try proxy.send("GET", "/v1/today", token: ana, headers: ["X-Forwarded-For": "203.0.113.9"]).status == 200)
        let untrusted = HTTPClient(port: server.port, sourceAddress: "127.0.0.9")
        #expect(try untrusted.send("GET", "/v1/today", token: ana, headers: ["X-Forwarded-For": "192.0.2.1", "X-Request-Id": "direct"]).status == 200)
        let logged = Date().addingTimeInterval(10)
        while !(server.log().contains("\"via-proxy\"") && server.log().contains("\"direct\"")), Date() < logged { usleep(10_000) }
        let lines = server.log().split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.first { $0["requestId"] as? String == "via-proxy" }?["address"] as? String == "203.0.113.9")
        #expect(lines.first { $0["requestId"] as? String == "direct" }?["address"] as? String == "127.0.0.9")
    }

    @Test("CORS is off by default; with --allow-origin, that origin's preflight is 204 with the methods and headers, and other origins get no CORS headers")
    func cors() throws {
        let (_, off, ana) = try serve()
        let preflight = ["Origin": "https://app.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization"]
        let refused = try off.client.send("OPTIONS", "/v1/habits", headers: preflight)
        #expect(refused.status == 204 && refused.headers["access-control-allow-origin"] == nil)
        #expect(try off.client.send("GET", "/v1/today", token: ana, headers: ["Origin": "https://app.example"]).headers["access-control-allow-origin"] == nil)
        off.stop()
        let (_, on, token) = try serve(["--allow-origin", "https://app.example", "--allow-origin", "http://localhost:5173"])
        defer { on.stop() }
        let allowed = try on.client.send("OPTIONS", "/v1/habits", headers: preflight)
        #expect(allowed.status == 204 && allowed.headers["access-control-allow-origin"] == "https://app.example")
        #expect(allowed.headers["access-control-allow-methods"]?.contains("POST") == true && allowed.headers["access-control-allow-headers"]?.contains("Authorization") == true)
        #expect(try on.client.send("GET", "/v1/today", token: token, headers: ["Origin": "http://localhost:5173"]).headers["access-control-allow-origin"] == "http://localhost:5173")
        let stranger = try on.client.send("OPTIONS", "/v1/habits", headers: preflight.merging(["Origin": "https://evil.example"]) { $1 })
        #expect(stranger.headers["access-control-allow-origin"] == nil && stranger.headers["access-control-allow-methods"] == nil)
    }
}

/// The deployment files.
@Suite("deployment")
struct DeploymentTests {
    @Test("deploy/stackday.service is a unit systemd-analyze verifies (where systemd is present), locked down")
    func unit() throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../deploy/stackday.service").standardizedFileURL
        let unit = try String(contentsOf: source, encoding: .utf8)
        for line in ["ProtectSystem=strict", "NoNewPrivileges=yes", "Restart=on-failure", "User=stackday", "ReadWritePaths=/var/lib/stackday", "KillSignal=SIGTERM"] {
            #expect(unit.contains("\n\(line)\n"), "\(line) missing")
        }
        let analyze = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
        guard FileManager.default.isExecutableFile(atPath: analyze.path) else { return }
        // The unit as installed, with the binary this build made in ExecStart's place.
        let folder = try TemporaryFolder()
        let copy = folder.path("stackday.service")
        try unit.replacingOccurrences(of: "/usr/local/bin/stackday", with: stackday.executable.path).write(toFile: copy, atomically: true, encoding: .utf8)
        let verified = try Subprocess(executable: analyze).run(["verify", "--man=no", copy])
        let problems = (verified.stdout + verified.stderr).split(separator: "\n").filter { line in
            // A container without the unit's user or without a running systemd says so; the unit itself must be clean.
            !line.contains("User=") && !line.contains("Failed to connect") && !line.contains("System has not been booted")
                && !line.contains("Unit stackday.service not found") && !line.lowercased().contains("dbus")
        }
        #expect(verified.status == 0 || problems.isEmpty, "\(verified.stdout)\(verified.stderr)")
        #expect(problems.allSatisfy { !$0.contains(copy) || !$0.lowercased().contains("error") }, "\(problems)")
    }
}
