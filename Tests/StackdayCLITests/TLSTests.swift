import Foundation
import Synchronization
import Testing
import StackDayTestSupport

/// `stackday serve --tls-cert/--tls-key` and `stackday sync` over https://, with certificates of a
/// test authority made by `openssl`: only TLS 1.2 and 1.3, the server's certificate verified by
/// the client, a new certificate taken on SIGHUP without dropping an open connection, and the
/// headers and cookies a browser needs to keep to HTTPS.
@Suite("TLS")
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

        /// A certificate and key signed by the authority, written to `name.pem` and `name.key`: for
        /// localhost and 127.0.0.1 unless `names` says otherwise, valid now unless `expired`.
        func issue(_ name: String, names: String = "DNS:localhost,IP:127.0.0.1", expired: Bool = false) throws -> (certificate: String, key: String) {
            let (certificate, key, request, extensions) = (folder.path("\(name).pem"), folder.path("\(name).key"), folder.path("\(name).csr"), folder.path("\(name).ext"))
            try "subjectAltName=\(names)\n".write(toFile: extensions, atomically: true, encoding: .utf8)
            try openssl(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", request, "-subj", "/CN=\(name)"])
            guard expired else {
                try openssl(["x509", "-req", "-in", request, "-CA", caFile, "-CAkey", folder.path("ca.key"), "-CAcreateserial", "-out", certificate,
                             "-days", "2", "-extfile", extensions])
                return (certificate, key)
            }
            // `openssl ca` sets both dates: a certificate that ended in 2020.
            let config = folder.path("ca.cnf")
            try """
                [ca]
                default_ca = test
                [test]
                database = \(folder.path("index.txt"))
                new_certs_dir = \(folder.path(""))
                serial = \(folder.path("serial"))
                default_md = sha256
                policy = any
                [any]
                commonName = supplied
                """.write(toFile: config, atomically: true, encoding: .utf8)
            try "".write(toFile: folder.path("index.txt"), atomically: true, encoding: .utf8)
            try "01\n".write(toFile: folder.path("serial"), atomically: true, encoding: .utf8)
            try openssl(["ca", "-batch", "-config", config, "-cert", caFile, "-keyfile", folder.path("ca.key"), "-in", request, "-out", certificate,
                         "-startdate", "20200101000000Z", "-enddate", "20200201000000Z", "-extfile", extensions])
            return (certificate, key)
        }

        @discardableResult
        func openssl(_ arguments: [String], input: String? = nil) throws -> Subprocess.Result {
            let result = try Subprocess(executable: URL(fileURLWithPath: "/usr/bin/openssl")).run(arguments, input: input, timeout: 30)
            if arguments.first != "s_client" { #expect(result.status == 0, "openssl \(arguments.prefix(2)): \(result.stderr)") }
            return result
        }

        /// What `openssl s_client` says of a handshake with `port` limited to `version` (`-tls1_2`).
        func handshake(port: Int, version: String, cipher: String = "DEFAULT") throws -> String {
            // SECLEVEL=0: this client offers the old versions too, so that a refusal is the server's.
            let result = try openssl(["s_client", "-connect", "127.0.0.1:\(port)", version, "-cipher", cipher + "@SECLEVEL=0", "-CAfile", caFile,
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

    /// `stackday serve` over TLS with `certificate` and `key`, on a store of its own with one user
    /// (`ana`): the server, its store's fixture and the user's token.
    static func serve(certificate: String, key: String) throws -> (ServerProcess, CLIFixture, String) {
        let serverSide = try CLIFixture()
        let token = try serverSide.run(["user", "add", "ana"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try ServerProcess(executable: stackday.executable, arguments: ["--db", serverSide.db],
                                       serveArguments: ["--tls-cert", certificate, "--tls-key", key])
        return (server, serverSide, token)
    }

    @Test("HTTPS with TLS 1.2 and 1.3 only; sync verifies the certificate and trusts --cacert; HSTS and Secure cookies")
    func serveAndSync() throws {
        let authority = try Authority()
        let (certificate, key) = try authority.issue("server")
        let (server, serverSide, token) = try Self.serve(certificate: certificate, key: key)
        defer { server.stop() }
        #expect(server.log().contains("listening on https://127.0.0.1:\(server.port)"))
        #expect(!server.log().contains("warning"))

        #expect(try authority.handshake(port: server.port, version: "-tls1_2").contains("New, TLSv1.2, Cipher is"))
        #expect(try authority.handshake(port: server.port, version: "-tls1_3").contains("New, TLSv1.3, Cipher is"))
        for version in ["-tls1_1", "-tls1"] {
            let old = try authority.handshake(port: server.port, version: version)
            #expect(old.contains("New, (NONE), Cipher is (NONE)") && old.contains("written"), "\(version): \(old)")
        }
        // TLS 1.2 as Mozilla's "intermediate" profile has it: ECDHE with an AEAD cipher, no CBC.
        for cipher in ["ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-ECDSA-CHACHA20-POLY1305"] {
            #expect(try authority.handshake(port: server.port, version: "-tls1_2", cipher: cipher).contains("Cipher is \(cipher)"), "\(cipher)")
        }
        for cipher in ["ECDHE-ECDSA-AES128-SHA", "ECDHE-ECDSA-AES256-SHA384", "ECDHE-ECDSA-AES128-SHA256"] {
            #expect(try authority.handshake(port: server.port, version: "-tls1_2", cipher: cipher).contains("Cipher is (NONE)"), "\(cipher)")
        }

        let device = try CLIFixture()
        #expect(try device.run(["habit", "add", "물 마시기"]).status == 0)
        let url = "https://localhost:\(server.port)"
        let untrusted = try device.run(["sync", "--server", url, "--token", token])
        #expect(untrusted.status != 0 && untrusted.stderr.contains("not trusted"), "\(untrusted.stderr)")
        let synced = try device.run(["sync", "--server", url, "--token", token, "--cacert", authority.caFile])
        #expect(synced.status == 0 && synced.stdout.contains("pushed"), "\(synced.stderr)")
        #expect(try serverSide.run(["habit", "list", "--user", "ana"]).stdout.contains("물 마시기"))
        let again = try device.run(["sync", "--server", "https://127.0.0.1:\(server.port)", "--token", token], environment: ["STACKDAY_CACERT": authority.caFile])
        #expect(again.status == 0, "\(again.stderr)")
        let plain = try device.run(["sync", "--server", "http://localhost:\(server.port)", "--token", token])
        #expect(plain.status != 0)

        // A browser is told to keep to HTTPS, and its session cookie is Secure.
        let request = "POST /session HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(6 + token.count)\r\nConnection: close\r\n\r\ntoken=\(token)"
        let answer = try authority.openssl(["s_client", "-quiet", "-connect", "127.0.0.1:\(server.port)", "-CAfile", authority.caFile, "-servername", "localhost"],
                                           input: request).stdout
        #expect(answer.contains("Strict-Transport-Security: max-age=31536000"), "\(answer)")
        #expect(answer.contains("Set-Cookie:") && answer.contains("; Secure"), "\(answer)")
    }

    @Test("a certificate of an unknown issuer, of another host or expired: one line naming what failed, code tls_failed, nothing changed",
          arguments: [("unknown issuer", "unknown"), ("wrong host name", "other"), ("expired", "expired")])
    func untrusted(_ words: String, _ kind: String) throws {
        let authority = try Authority()
        let stranger = try Authority()
        let (certificate, key) = kind == "unknown" ? try stranger.issue("server")
            : try authority.issue("server", names: kind == "other" ? "DNS:other.example" : "DNS:localhost,IP:127.0.0.1", expired: kind == "expired")
        let (server, serverSide, token) = try Self.serve(certificate: certificate, key: key)
        defer { server.stop(); _ = serverSide }
        let device = try CLIFixture()
        #expect(try device.run(["habit", "add", "water"]).status == 0)
        let before = try device.snapshot()
        let failed = try device.run(["sync", "--server", "https://localhost:\(server.port)", "--token", token, "--cacert", authority.caFile])
        #expect(failed.status == 1 && failed.stderr.split(separator: "\n").count == 1, "\(failed.stderr)")
        #expect(failed.stderr.contains("certificate is not trusted: \(words)"), "\(failed.stderr)")
        let json = try device.run(["sync", "--server", "https://localhost:\(server.port)", "--token", token, "--cacert", authority.caFile, "--json"])
        #expect(json.stderr.contains(#""code":"tls_failed""#), "\(json.stderr)")
        #expect(try device.snapshot() == before)
        #expect(!server.log().contains("POST /v1/sync"), "the token was never sent")
    }

    @Test("a device paired over https keeps the certificate authority it was paired by: later syncs need no --cacert, even with the file gone")
    func pairedKeepsAuthority() throws {
        let authority = try Authority()
        let (certificate, key) = try authority.issue("server")
        let (server, serverSide, token) = try Self.serve(certificate: certificate, key: key)
        defer { server.stop() }
        let request = "POST /v1/devices/pairing HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        let answer = try authority.openssl(["s_client", "-quiet", "-connect", "127.0.0.1:\(server.port)", "-CAfile", authority.caFile, "-servername", "localhost"],
                                           input: request).stdout
        let code = try #require(answer.firstMatch(of: /"code":"([0-9A-Z]{4}-[0-9A-Z]{4})"/).map { String($0.1) }, "\(answer)")

        let device = try CLIFixture()
        #expect(try device.run(["habit", "add", "water"]).status == 0)
        let url = "https://localhost:\(server.port)"
        // A file that is not a certificate is refused before anything is sent.
        let notPEM = device.folder.path("notes.txt")
        try Data("hello".utf8).write(to: URL(fileURLWithPath: notPEM))
        let refused = try device.run(["sync", "--server", url, "--pair", code, "--cacert", notPEM])
        #expect(refused.status == 64 && refused.stderr.hasPrefix("Error: invalid value for --cacert: '\(notPEM)' holds no PEM certificate"), "\(refused.stderr)")

        let copied = device.folder.path("ca-copy.pem")
        try FileManager.default.copyItem(atPath: authority.caFile, toPath: copied)
        let paired = try device.run(["sync", "--server", url, "--pair", code, "--cacert", copied, "--device-name", "phone"])
        #expect(paired.status == 0 && paired.stdout.hasPrefix("Paired this device with \(url)."), "\(paired.stderr)")
        #expect(SQLiteShell.run(device.db, "SELECT authorities LIKE '-----BEGIN CERTIFICATE-----%' FROM sync_credentials") == ["1"])
        try FileManager.default.removeItem(atPath: copied)
        #expect(try device.run(["record", "water"]).status == 0)
        let bare = try device.run(["sync"])
        #expect(bare.status == 0 && bare.stdout.contains("pushed 1 change"), "\(bare.stdout)\(bare.stderr)")
        #expect(try serverSide.run(["--user", "ana", "--json", "today"]).stdout.contains("\"total\":1"))

        // A device that was never given the authority is told which option trusts it.
        let stranger = try CLIFixture()
        let untrusted = try stranger.run(["sync", "--server", url, "--token", token])
        #expect(untrusted.status == 1 && untrusted.stderr.split(separator: "\n").count == 1, "\(untrusted.stderr)")
        #expect(untrusted.stderr.contains("unknown issuer") && untrusted.stderr.contains("give its certificate with --cacert FILE (or $STACKDAY_CACERT)"),
                "\(untrusted.stderr)")
    }

    @Test("http:// to another host is refused unless the network is said to be trusted")
    func plainHTTPElsewhere() throws {
        let device = try CLIFixture()
        let refused = try device.run(["sync", "--server", "http://192.0.2.10:8080", "--token", "sd_x"])
        #expect(refused.status == 64 && refused.stderr.contains("refusing http://") && refused.stderr.contains("--allow-insecure-http"), "\(refused.stderr)")
        // 0.0.0.0 is not a loopback name, but a connection to it stays on this machine.
        let unsaid = try device.run(["sync", "--server", "http://0.0.0.0:9", "--token", "sd_x"])
        #expect(unsaid.status == 64 && unsaid.stderr.contains("refusing http://"))
        let allowed = try device.run(["sync", "--server", "http://0.0.0.0:9", "--token", "sd_x", "--allow-insecure-http"])
        #expect(allowed.status == 1 && allowed.stderr.contains("cannot reach the sync server"), "past the check, it connects: \(allowed.stderr)")
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
        open.arguments = ["s_client", "-connect", "127.0.0.1:\(server.port)", "-CAfile", authority.caFile, "-servername", "localhost"]
        let input = Pipe(), output = Pipe()
        open.standardInput = input
        open.standardOutput = output
        open.standardError = FileHandle.nullDevice
        let received = Mutex(Data())
        output.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            received.withLock { $0.append(chunk) }
        }
        try open.run()
        // The handshake done (s_client prints the verification's result after it), not a time.
        let shaken = Date().addingTimeInterval(10)
        while !received.withLock({ String(decoding: $0, as: UTF8.self).contains("Verify return code") }), Date() < shaken { usleep(10_000) }

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
        open.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil
        let answer = received.withLock { String(decoding: $0, as: UTF8.self) } + String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(answer.contains("\nHTTP/1.1 200"), "\(answer)")

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
