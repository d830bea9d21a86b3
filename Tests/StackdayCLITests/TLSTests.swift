import Foundation
import Testing
import StackDayTestSupport

/// `stackday serve --tls-cert/--tls-key` and `stackday sync` over https://, with certificates of a
/// test authority made by `openssl`: only TLS 1.2 and 1.3, the server's certificate verified by
/// the client, a new certificate taken on SIGHUP without dropping an open connection, and the
/// headers and cookies a browser needs to keep to HTTPS.
@Suite("TLS", .serialized)
struct TLSTests {
    /// A test certificate authority and server certificates it signed, for localhost and 127.0.0.1.
    final class Authority {
        let folder: TemporaryFolder
        var caFile: String { folder.path("ca.pem") }

        init() throws {
            folder = try TemporaryFolder()
            try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", folder.path("ca.key"),
                         "-out", caFile, "-days", "2", "-subj", "/CN=StackDay test authority"])
        }

        /// A certificate and key signed by the authority, written to `name.pem` and `name.key`.
        func issue(_ name: String) throws -> (certificate: String, key: String) {
            let (certificate, key, request, extensions) = (folder.path("\(name).pem"), folder.path("\(name).key"), folder.path("\(name).csr"), folder.path("\(name).ext"))
            try "subjectAltName=DNS:localhost,IP:127.0.0.1\n".write(toFile: extensions, atomically: true, encoding: .utf8)
            try openssl(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", request, "-subj", "/CN=localhost"])
            try openssl(["x509", "-req", "-in", request, "-CA", caFile, "-CAkey", folder.path("ca.key"), "-CAcreateserial", "-out", certificate,
                         "-days", "2", "-extfile", extensions])
            return (certificate, key)
        }

        @discardableResult
        func openssl(_ arguments: [String], input: String? = nil) throws -> Subprocess.Result {
            let result = try Subprocess(executable: URL(fileURLWithPath: "/usr/bin/openssl")).run(arguments, input: input, timeout: 30)
            if arguments.first != "s_client" { #expect(result.status == 0, "openssl \(arguments.prefix(2)): \(result.stderr)") }
            return result
        }

        /// What `openssl s_client` says of a handshake with `port` limited to `version` (`-tls1_2`).
        func handshake(port: Int, version: String) throws -> String {
            // SECLEVEL=0: this client offers the old versions too, so that a refusal is the server's.
            let result = try openssl(["s_client", "-connect", "127.0.0.1:\(port)", version, "-cipher", "DEFAULT@SECLEVEL=0", "-CAfile", caFile,
                                      "-servername", "localhost"], input: "")
            return result.stdout + result.stderr
        }

        /// The SHA-256 fingerprint of the certificate the server on `port` presents now.
        func presented(port: Int) throws -> String {
            let shown = try openssl(["s_client", "-connect", "127.0.0.1:\(port)", "-servername", "localhost"], input: "").stdout
            let pem = shown.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst().first?.components(separatedBy: "-----END CERTIFICATE-----").first ?? ""
            let digest = try openssl(["x509", "-noout", "-fingerprint", "-sha256"], input: "-----BEGIN CERTIFICATE-----" + pem + "-----END CERTIFICATE-----\n")
            return digest.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    @Test("HTTPS with TLS 1.2 and 1.3 only; sync verifies the certificate and trusts --ca; HSTS and Secure cookies")
    func serveAndSync() throws {
        let authority = try Authority()
        let (certificate, key) = try authority.issue("server")
        let serverSide = try CLIFixture()
        let token = try serverSide.run(["user", "add", "ana"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try ServerProcess(executable: stackday.executable, arguments: ["--db", serverSide.db],
                                       serveArguments: ["--tls-cert", certificate, "--tls-key", key])
        defer { server.stop() }
        #expect(server.log().contains("listening on https://127.0.0.1:\(server.port)"))
        #expect(!server.log().contains("warning"))

        #expect(try authority.handshake(port: server.port, version: "-tls1_2").contains("New, TLSv1.2, Cipher is"))
        #expect(try authority.handshake(port: server.port, version: "-tls1_3").contains("New, TLSv1.3, Cipher is"))
        for version in ["-tls1_1", "-tls1"] {
            let old = try authority.handshake(port: server.port, version: version)
            #expect(old.contains("New, (NONE), Cipher is (NONE)") && old.contains("written"), "\(version): \(old)")
        }

        let device = try CLIFixture()
        #expect(try device.run(["habit", "add", "물 마시기"]).status == 0)
        let url = "https://localhost:\(server.port)"
        let untrusted = try device.run(["sync", "--server", url, "--token", token])
        #expect(untrusted.status != 0 && untrusted.stderr.contains("not trusted"), "\(untrusted.stderr)")
        let synced = try device.run(["sync", "--server", url, "--token", token, "--ca", authority.caFile])
        #expect(synced.status == 0 && synced.stdout.contains("pushed"), "\(synced.stderr)")
        #expect(try serverSide.run(["habit", "list", "--user", "ana"]).stdout.contains("물 마시기"))
        // The name in the URL must be the certificate's.
        let wrongName = try device.run(["sync", "--server", "https://127.0.0.2:\(server.port)", "--token", token, "--ca", authority.caFile])
        #expect(wrongName.status != 0, "\(wrongName.stdout)")
        let plain = try device.run(["sync", "--server", "http://localhost:\(server.port)", "--token", token])
        #expect(plain.status != 0)

        // A browser is told to keep to HTTPS, and its session cookie is Secure.
        let request = "POST /session HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(6 + token.count)\r\nConnection: close\r\n\r\ntoken=\(token)"
        let answer = try authority.openssl(["s_client", "-quiet", "-connect", "127.0.0.1:\(server.port)", "-CAfile", authority.caFile, "-servername", "localhost"],
                                           input: request).stdout
        #expect(answer.contains("Strict-Transport-Security: max-age=31536000"), "\(answer)")
        #expect(answer.contains("Set-Cookie:") && answer.contains("; Secure"), "\(answer)")
    }

    @Test("SIGHUP takes a renewed certificate for new connections; an open one keeps working; a bad file keeps the old one")
    func reload() throws {
        let authority = try Authority()
        let first = try authority.issue("first")
        let serverSide = try CLIFixture()
        let served = (certificate: authority.folder.path("served.pem"), key: authority.folder.path("served.key"))
        try FileManager.default.copyItem(atPath: first.certificate, toPath: served.certificate)
        try FileManager.default.copyItem(atPath: first.key, toPath: served.key)
        let server = try ServerProcess(executable: stackday.executable, arguments: ["--db", serverSide.db],
                                       serveArguments: ["--tls-cert", served.certificate, "--tls-key", served.key])
        defer { server.stop() }
        let before = try authority.presented(port: server.port)
        #expect(before.contains("Fingerprint"))

        // A connection opened before the reload, its request sent after it.
        let open = Process()
        open.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        open.arguments = ["s_client", "-quiet", "-connect", "127.0.0.1:\(server.port)", "-CAfile", authority.caFile, "-servername", "localhost"]
        let input = Pipe(), output = Pipe()
        open.standardInput = input
        open.standardOutput = output
        open.standardError = FileHandle.nullDevice
        try open.run()
        usleep(500_000)

        let second = try authority.issue("second")
        try FileManager.default.removeItem(atPath: served.certificate)
        try FileManager.default.removeItem(atPath: served.key)
        try FileManager.default.copyItem(atPath: second.certificate, toPath: served.certificate)
        try FileManager.default.copyItem(atPath: second.key, toPath: served.key)
        kill(server.process.processIdentifier, SIGHUP)
        let deadline = Date().addingTimeInterval(10)
        while !server.log().contains("SIGHUP, serving"), Date() < deadline { usleep(20_000) }
        #expect(server.log().contains("SIGHUP, serving the certificate"), "\(server.log())")
        let after = try authority.presented(port: server.port)
        #expect(after.contains("Fingerprint") && after != before)

        input.fileHandleForWriting.write(Data("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8))
        let answer = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        open.waitUntilExit()
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")

        // A key that is not the certificate's: the reload is refused and the served one stays.
        try FileManager.default.removeItem(atPath: served.key)
        try FileManager.default.copyItem(atPath: first.key, toPath: served.key)
        kill(server.process.processIdentifier, SIGHUP)
        let later = Date().addingTimeInterval(10)
        while !server.log().contains("kept the certificate"), Date() < later { usleep(20_000) }
        #expect(server.log().contains("kept the certificate served before") && server.log().contains("is not the key of the certificate"), "\(server.log())")
        #expect(try authority.presented(port: server.port) == after)
        #expect(server.process.isRunning)
    }

    @Test("--tls-cert without --tls-key, and a file that is not a certificate, are refused before listening")
    func refusedAtStart() throws {
        let cli = try CLIFixture()
        let alone = try cli.run(["serve", "--listen", "127.0.0.1:0", "--tls-cert", "/nonexistent.pem"])
        #expect(alone.status == 64 && alone.stderr.contains("--tls-cert and --tls-key go together"), "\(alone.stderr)")
        let notPEM = cli.folder.path("x.pem")
        try "not a certificate".write(toFile: notPEM, atomically: true, encoding: .utf8)
        let bad = try cli.run(["serve", "--listen", "127.0.0.1:0", "--tls-cert", notPEM, "--tls-key", notPEM])
        #expect(bad.status == 1 && bad.stderr.contains("cannot serve HTTPS") && bad.stderr.contains(notPEM), "\(bad.stderr)")
    }
}
