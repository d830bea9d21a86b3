import Foundation
import StackDay
import StackDayLua
import StackDayPostgres
import StackDaySQLite
import StackDayServer

/// `stackday serve`: the HTTP JSON API for the store's users (docs/server.md).
enum ServeCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "serve", abstract: "Answer the HTTP JSON API for the store's users (see 'stackday user').",
            discussion: """
            Each request carries a user's token (Authorization: Bearer TOKEN) and runs as that user, in the user's
            time zone. SIGTERM or SIGINT stops accepting, lets requests in flight finish (up to 3 s) and exits 0,
            even when a call is stuck. One access line per request goes to stderr: method, path, status,
            milliseconds, user (control characters escaped).
            All of one request's policy calls share one budget of work and CPU time; a client (one token or session,
            else one address) is answered on at most half the threads at once, its other requests waiting in the
            queue, so one user's load cannot hold the server.
            With --tls-cert and --tls-key it serves HTTPS (TLS 1.2 and 1.3) itself, with Strict-Transport-Security and
            Secure cookies; SIGHUP reads the two files again, for new connections (open ones keep theirs).
            """,
            options: [
                OptionSpec(name: "listen", valueName: "host:port", help: "The IPv4 address and port (default: 127.0.0.1:8080; port 0 picks a free one)."),
                OptionSpec(name: "threads", valueName: "n", help: "Threads answering requests (default: 4)."),
                OptionSpec(name: "max-body", valueName: "bytes", help: "The largest request body (default: 1048576)."),
                OptionSpec(name: "idle-timeout", valueName: "seconds", help: "How long an idle connection is kept (default: 30)."),
                OptionSpec(name: "header-timeout", valueName: "seconds", help: "Silence allowed before a request's headers are complete (default: 10)."),
                OptionSpec(name: "min-body-rate", valueName: "bytes", help: "Bytes a second a request body must average after the header timeout; slower ones are closed (default: 1024)."),
                OptionSpec(name: "connections-per-address", valueName: "n", help: "Connections one client address may hold (default: 64)."),
                OptionSpec(name: "client-threads", valueName: "n", help: "Requests of one client answered at once (default: half the threads, at least 1)."),
                OptionSpec(name: "client-queue", valueName: "n", help: "Requests of one client that may wait; more are answered 503 (default: 64)."),
                OptionSpec(name: "request-deadline", valueName: "seconds", help: "A request holding a thread longer is answered 503 and the thread replaced (default: 5)."),
                OptionSpec(name: "request-cpu-ms", valueName: "ms", help: "CPU time all of one request's policy calls may take (default: 500)."),
                OptionSpec(name: "session-days", valueName: "n", help: "How long a browser session lasts (default: 30)."),
                OptionSpec(name: "cookie-secure", valueName: nil, help: "Mark session cookies Secure even without X-Forwarded-Proto: https (behind a TLS proxy)."),
                OptionSpec(name: "tls-cert", valueName: "file", help: "Serve HTTPS with this certificate chain (PEM; with --tls-key)."),
                OptionSpec(name: "tls-key", valueName: "file", help: "The certificate's private key (PEM; with --tls-cert)."),
                OptionSpec(name: "behind-proxy", valueName: nil, help: "A TLS proxy in front is this server's only client: no warning for plain HTTP beyond loopback."),
                OptionSpec(name: "allow-origin", valueName: "origin", help: "A browser origin that may call the API (CORS; repeatable; default: none).", repeatable: true),
                OptionSpec(name: "rate-limit", valueName: "n", help: "Requests a minute one user may make, whichever token carries them (default: no limit)."),
                OptionSpec(name: "auth-failures", valueName: "n", help: "Failed authentications one address may make in a minute before it waits (default: 10)."),
                OptionSpec(name: "log-format", valueName: "format", help: "The access log: text (default) or json, one object a line."),
                OptionSpec(name: "metrics-listen", valueName: "host:port", help: "Serve Prometheus metrics at /metrics on this address (default: none)."),
                OptionSpec(name: "trusted-proxy", valueName: "address", help: "A proxy whose X-Forwarded-For and X-Forwarded-Proto are believed (repeatable).", repeatable: true),
            ],
            run: run
        )
    }

    static func run(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        var options = HTTPServerOptions()
        if let listen = invocation.option("listen") {
            (options.host, options.port) = try address(invocation, "listen", listen)
        }
        var apiOptions = APIOptions()
        apiOptions.allowedOrigins = invocation.optionLists["allow-origin"] ?? []
        for origin in apiOptions.allowedOrigins where !(origin.hasPrefix("http://") || origin.hasPrefix("https://")) || origin.hasSuffix("/") {
            throw invocation.usage("invalid value for --allow-origin: '\(origin)' (an origin is scheme://host[:port], like https://app.example)")
        }
        if invocation.option("rate-limit") != nil { apiOptions.rateLimit = try positive(invocation, "rate-limit", default: 60, limit: 1_000_000) }
        switch invocation.option("log-format") ?? "text" {
        case "text": apiOptions.logFormat = .text
        case "json": apiOptions.logFormat = .json
        case let other: throw invocation.usage("invalid value for --log-format: '\(other)' (use text or json)")
        }
        apiOptions.trustedProxies = invocation.optionLists["trusted-proxy"] ?? []
        apiOptions.failuresPerMinute = try positive(invocation, "auth-failures", default: 10, limit: 1_000_000)
        let metricsAddress = try invocation.option("metrics-listen").map { try address(invocation, "metrics-listen", $0) }
        options.threads = try positive(invocation, "threads", default: 4, limit: 256)
        options.maxBody = try positive(invocation, "max-body", default: 1 << 20, limit: 1 << 30)
        options.idleTimeout = try positive(invocation, "idle-timeout", default: 30, limit: 3600)
        options.headerTimeout = try positive(invocation, "header-timeout", default: 10, limit: 3600)
        options.minBodyRate = try positive(invocation, "min-body-rate", default: 1024, limit: 1 << 30)
        options.perAddressLimit = try positive(invocation, "connections-per-address", default: 64, limit: 100_000)
        if invocation.option("client-threads") != nil {
            options.perClientWorkers = try positive(invocation, "client-threads", default: 1, limit: options.threads)
        }
        options.perClientQueue = try positive(invocation, "client-queue", default: 64, limit: 4096)
        options.hardDeadline = try positive(invocation, "request-deadline", default: 5, limit: 3600)
        var requestBudget = PolicyRequestBudget.standard
        requestBudget.cpuMilliseconds = try positive(invocation, "request-cpu-ms", default: requestBudget.cpuMilliseconds, limit: 3_600_000)
        let tls: (certificate: String, key: String)?
        switch (invocation.option("tls-cert"), invocation.option("tls-key")) {
        case (let certificate?, let key?): tls = (certificate, key)
        case (nil, nil): tls = nil
        default: throw invocation.usage("--tls-cert and --tls-key go together: give both, or neither")
        }
        if let tls {
            do { try HTTPServer.loadCertificate(certificate: tls.certificate, key: tls.key) } catch { throw CommandFailure("cannot serve HTTPS: \(error)") }
            options.tls = true
            apiOptions.strictTransportSecurity = true
        }
        let pages = PageOptions(sessionDays: try positive(invocation, "session-days", default: 30, limit: 3650),
                                cookieSecure: invocation.flag("cookie-secure") || tls != nil)

        // Opened once here, so that a bad database stops the server before it listens.
        _ = try environment.store()
        let location = try environment.database()
        let makeStore: @Sendable () throws -> any HabitStore = {
            switch location {
            case .postgres(let url): try PostgresHabitStore(url: url)
            case .sqlite(let path):
                // No user's write pays for copying the log back (`WALCheckpointer`).
                try { let store = try SQLiteHabitStore(path: path); try store.checkpointInBackground(); return store }()
            }
        }
        let folder = environment.userPolicyFolder
        let budget = try environment.policyBudget()
        // Every user's policy work runs in runner processes, killed at the request's deadline.
        let runners = PolicyRunnerPool(executable: PolicyRunnerPool.currentExecutable, budget: budget,
                                       longestWait: .seconds(options.hardDeadline) - .milliseconds(250), keepIdle: options.threads)
        let resolver = IsolatedPolicyResolver(library: try PolicyLibrary(searchPath: [folder], budget: budget), pool: runners)
        let api = StackDayAPI(
            clock: environment.clock, makeStore: makeStore,
            makePolicies: { resolver.forAnotherOwner() },
            cachesAnswers: !invocation.globals.noCache,
            requestBudget: requestBudget,
            pages: pages,
            options: apiOptions,
            log: { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
        )

        // The signals are taken by sigwait below: block them before the server's threads start,
        // so that every thread inherits the mask.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGHUP)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        options.clientKey = { api.clientKey(of: $0) }
        options.sessionCookie = StackDayAPI.sessionCookie
        let server = try HTTPServer(options: options) { api.handle($0) }
        environment.io.error("stackday serve: listening on \(tls == nil ? "http" : "https")://\(options.host):\(server.port) with \(options.threads) threads")
        if tls == nil, let warning = PlainHTTPWarning.text(host: options.host, port: server.port, behindProxy: invocation.flag("behind-proxy")) {
            environment.io.error(warning)
        }
        var metricsServer: HTTPServer? = nil
        if let (host, port) = metricsAddress {
            var metricsOptions = HTTPServerOptions()
            metricsOptions.host = host
            metricsOptions.port = port
            metricsOptions.threads = 1
            metricsServer = try HTTPServer(options: metricsOptions) { request in
                guard request.method == "GET", request.path == "/metrics" else { return .error("only GET /metrics is served here", code: .notFound) }
                return .text(api.metricsText(connections: server.connections), contentType: "text/plain; version=0.0.4; charset=utf-8")
            }
            environment.io.error("stackday serve: metrics on http://\(host):\(metricsServer?.port ?? port)/metrics")
        }
        environment.io.flush()
        var received: Int32 = 0
        sigwait(&signals, &received)
        while received == SIGHUP {
            // A renewed certificate: new handshakes take it; a file that cannot be read keeps the old one.
            if let tls {
                do {
                    let fingerprint = try HTTPServer.loadCertificate(certificate: tls.certificate, key: tls.key)
                    environment.io.error("stackday serve: SIGHUP, serving the certificate in \(tls.certificate) (SHA-256 \(fingerprint))")
                } catch {
                    environment.io.error("stackday serve: SIGHUP, kept the certificate served before: \(error)")
                }
            } else {
                environment.io.error("stackday serve: SIGHUP ignored: there is no certificate to reload")
            }
            environment.io.flush()
            sigwait(&signals, &received)
        }
        environment.io.error("stackday serve: \(received == SIGINT ? "SIGINT" : "SIGTERM"), finishing the requests in flight")
        environment.io.flush()
        _ = metricsServer?.stop(grace: 1)
        if !server.stop(grace: 3) {
            environment.io.error("stackday serve: a request was still running after 3 s; exiting without it")
            environment.io.flush()
        }
    }

    /// `HOST:PORT` (an IPv4 address or name, and a port; 0 picks a free one).
    static func address(_ invocation: Invocation, _ name: String, _ text: String) throws -> (String, Int) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let port = Int(parts[1]), (0...65535).contains(port), !parts[0].isEmpty else {
            throw invocation.usage("invalid value for --\(name): '\(text)' (use HOST:PORT, e.g. 127.0.0.1:8080)")
        }
        return (String(parts[0]), port)
    }

    static func positive(_ invocation: Invocation, _ name: String, default value: Int, limit: Int) throws -> Int {
        guard let text = invocation.option(name) else { return value }
        guard let number = Int(text), number >= 1, number <= limit else {
            throw invocation.usage("invalid value for --\(name): '\(text)' (a whole number from 1 to \(limit))")
        }
        return number
    }
}
