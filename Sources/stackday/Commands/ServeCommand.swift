import Foundation
import StackDay
import StackDayApplication
import StackDayLua
import StackDayPostgres
import StackDaySQLite
import StackDayServer

/// `stackday serve`: the HTTP JSON API for the store's users (docs/server.md).
enum ServeCommand {
    /// A whole number from 1 to `limit`.
    static func count(_ key: String, _ help: String, valueName: String = "n", limit: Int) -> RequestField<Int> {
        RequestField<Int>.integer(key, in: 1...limit, what: "a whole number from 1 to \(limit)", help: help, valueName: valueName).commandLineOnly
    }

    /// `HOST:PORT` (an IPv4 address or name, and a port; 0 picks a free one).
    static func address(_ key: String, _ help: String) -> RequestField<(host: String, port: Int)> {
        RequestField<String>.text(key, help: help, valueName: "host:port").commandLineOnly.map { text in
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let port = Int(parts[1]), (0...65535).contains(port), !parts[0].isEmpty else {
                throw RequestError("'\(text)' (use HOST:PORT, e.g. 127.0.0.1:8080)")
            }
            return (String(parts[0]), port)
        }
    }

    static let listen = address("listen", "The IPv4 address and port (default: 127.0.0.1:8080; port 0 picks a free one).")
    static let threads = count("threads", "Threads answering requests (default: 4).", limit: 256)
    static let maxBody = count("maxBody", "The largest request body (default: 1048576).", valueName: "bytes", limit: 1 << 30)
    static let idleTimeout = count("idleTimeout", "How long an idle connection is kept (default: 30).", valueName: "seconds", limit: 3600)
    static let headerTimeout = count("headerTimeout", "Silence allowed before a request's headers are complete (default: 10).", valueName: "seconds", limit: 3600)
    static let minBodyRate = count("minBodyRate", "Bytes a second a request body must average after the header timeout; slower ones are closed (default: 1024).",
                                   valueName: "bytes", limit: 1 << 30)
    static let connectionsPerAddress = count("connectionsPerAddress", "Connections one client address may hold (default: 64).", limit: 100_000)
    static let clientThreads = count("clientThreads", "Requests of one client answered at once (default: half the threads, at least 1).", limit: 256)
    static let clientQueue = count("clientQueue", "Requests of one client that may wait; more are answered 503 (default: 64).", limit: 4096)
    static let requestDeadline = count("requestDeadline", "A request holding a thread longer is answered 503 and the thread replaced (default: 5).",
                                       valueName: "seconds", limit: 3600)
    static let requestCPU = count("requestCpuMs", "CPU time all of one request's policy calls may take (default: 500).", valueName: "ms", limit: 3_600_000)
    static let sessionDays = count("sessionDays", "How long a browser session lasts (default: 30).", limit: 3650)
    static let cookieSecure = RequestField<Bool>.flag("cookieSecure", help: "Mark session cookies Secure even without X-Forwarded-Proto: https (behind a TLS proxy).")
        .commandLineOnly
    static let tlsCert = RequestField<String>.text("tlsCert", help: "Serve HTTPS with this certificate chain (PEM; with --tls-key).", valueName: "file").commandLineOnly
    static let tlsKey = RequestField<String>.text("tlsKey", help: "The certificate's private key (PEM; with --tls-cert).", valueName: "file").commandLineOnly
    static let behindProxy = RequestField<Bool>.flag("behindProxy", help: "A TLS proxy in front is this server's only client: no warning for plain HTTP beyond loopback.")
        .commandLineOnly
    static let allowOrigin = RequestField<[String]>.texts("allowOrigin", help: "A browser origin that may call the API (CORS; repeatable; default: none).",
                                                          valueName: "origin", limit: 64).commandLineOnly.map { origins in
        for origin in origins where !(origin.hasPrefix("http://") || origin.hasPrefix("https://")) || origin.hasSuffix("/") {
            throw RequestError("'\(origin)' (an origin is scheme://host[:port], like https://app.example)")
        }
        return origins
    }
    static let rateLimit = count("rateLimit", "Requests a minute one user may make, whichever token carries them (default: no limit).", limit: 1_000_000)
    static let authFailures = count("authFailures", "Failed authentications one address may make in a minute before it waits (default: 10).", limit: 1_000_000)
    static let logFormat = RequestField<String>.choice("logFormat", among: ["text", "json"], help: "The access log: text (default) or json, one object a line.",
                                                       valueName: "format").commandLineOnly
    static let readDatabase = RequestField<String>.text(
        "readDatabase", help: "A streaming replica of the PostgreSQL database that reads may use, each user's once it has replayed their writes (default: none).",
        valueName: "url").commandLineOnly
    static let metricsListen = address("metricsListen", "Serve Prometheus metrics at /metrics on this address (default: none).")
    static let trustedProxy = RequestField<[String]>.texts("trustedProxy", help: "A proxy whose X-Forwarded-For and X-Forwarded-Proto are believed (repeatable).",
                                                           valueName: "address", limit: 64).commandLineOnly

    static let limits = UserCommand.limitParts("limit", help: "A limit every user is held to unless they have their own (stackday user limits), as NAME=N (repeatable).")

    static let allowLocalWebhooks = RequestField<Bool>.flag(
        "allowLocalWebhooks", help: "Let webhooks go to loopback and private addresses (a receiver on this machine or network).")
    static let allowLocalPush = RequestField<Bool>.flag(
        "allowLocalPush", help: "Let push subscriptions name a push service on loopback or a private address (tests, a self-hosted service).")
    static let pushContact = RequestField<String>.text(
        "pushContact", help: "Whom push services may contact about this server's messages: mailto:… or https://… (default: mailto:stackday@HOST).",
        valueName: "url").commandLineOnly.map { contact in
        guard contact.hasPrefix("mailto:") || contact.hasPrefix("https://"), contact.count > 8 else {
            throw RequestError("'\(contact)' (use mailto:you@example.org or https://your.server)")
        }
        return contact
    }

    static let fields = [
        listen.declaration, threads.declaration, maxBody.declaration, idleTimeout.declaration, headerTimeout.declaration, minBodyRate.declaration,
        connectionsPerAddress.declaration, clientThreads.declaration, clientQueue.declaration, requestDeadline.declaration, requestCPU.declaration,
        sessionDays.declaration, cookieSecure.declaration, tlsCert.declaration, tlsKey.declaration, behindProxy.declaration, allowOrigin.declaration,
        rateLimit.declaration, authFailures.declaration, logFormat.declaration, metricsListen.declaration, trustedProxy.declaration,
        allowLocalWebhooks.declaration, allowLocalPush.declaration, pushContact.declaration, readDatabase.declaration, limits.declaration,
    ]

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
            Webhooks (POST /v1/webhooks) are sent from a queue kept in the store, retried with backoff for 24 hours;
            loopback and private addresses are refused unless --allow-local-webhooks.
            Reminders go to the browsers that subscribed (Web Push, signed with a key made on the first start and
            kept in the store) and to webhooks that want them, at each reminder time, only for habits still open.
            """,
            run: run
        ).taking(fields)
    }

    static func run(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        var options = HTTPServerOptions()
        if let (host, port) = try invocation[listen] { (options.host, options.port) = (host, port) }
        var apiOptions = APIOptions()
        apiOptions.allowedOrigins = try invocation[allowOrigin] ?? []
        if let limit = try invocation[rateLimit] { apiOptions.rateLimit = limit }
        apiOptions.logFormat = try invocation[logFormat] == "json" ? .json : .text
        apiOptions.trustedProxies = try invocation[trustedProxy] ?? []
        apiOptions.failuresPerMinute = try invocation[authFailures] ?? 10
        apiOptions.allowsLocalWebhooks = try invocation[allowLocalWebhooks] ?? false
        apiOptions.allowsLocalPush = try invocation[allowLocalPush] ?? false
        apiOptions.pushContact = try invocation[pushContact]
        apiOptions.limits = try invocation[limits] ?? .standard
        let metricsAddress = try invocation[metricsListen]
        options.threads = try invocation[threads] ?? 4
        options.maxBody = try invocation[maxBody] ?? 1 << 20
        options.idleTimeout = try invocation[idleTimeout] ?? 30
        options.headerTimeout = try invocation[headerTimeout] ?? 10
        options.minBodyRate = try invocation[minBodyRate] ?? 1024
        options.perAddressLimit = try invocation[connectionsPerAddress] ?? 64
        if let given = try invocation[clientThreads] {
            guard given <= options.threads else {
                throw invocation.usage("invalid value for --client-threads: '\(given)' is not a whole number from 1 to \(options.threads) (the threads)")
            }
            options.perClientWorkers = given
        }
        options.perClientQueue = try invocation[clientQueue] ?? 64
        options.hardDeadline = try invocation[requestDeadline] ?? 5
        var requestBudget = PolicyRequestBudget.standard
        requestBudget.cpuMilliseconds = try invocation[requestCPU] ?? requestBudget.cpuMilliseconds
        let tls: (certificate: String, key: String)?
        switch (try invocation[tlsCert], try invocation[tlsKey]) {
        case (let certificate?, let key?): tls = (certificate, key)
        case (nil, nil): tls = nil
        default: throw invocation.usage("--tls-cert and --tls-key go together: give both, or neither")
        }
        // Passwords and webhook signatures need libsodium (opened on demand): a server without it
        // says so before it listens, not at the first sign-in.
        do { _ = try Argon2idHasher() } catch { throw CommandFailure("cannot serve: \(ErrorView(error, requestCode: .usage).message)") }
        if let tls {
            do { try HTTPServer.loadCertificate(certificate: tls.certificate, key: tls.key) } catch { throw CommandFailure("cannot serve HTTPS: \(error)") }
            options.tls = true
            apiOptions.strictTransportSecurity = true
        }
        let pages = PageOptions(sessionDays: try invocation[sessionDays] ?? 30, cookieSecure: try invocation[cookieSecure] ?? false || tls != nil)

        // Opened once here, so that a bad database stops the server before it listens.
        _ = try environment.store()
        let location = try environment.database()
        let replica = try invocation[readDatabase]
        if let replica {
            guard case .postgres = location else { throw invocation.usage("--read-database needs a PostgreSQL --database: it names that database's replica") }
            guard replica.hasPrefix("postgres://") || replica.hasPrefix("postgresql://") else {
                throw invocation.usage("invalid value for --read-database: '\(replica)' (use postgres://… or postgresql://…)")
            }
            // Reached once here, so that a wrong address stops the server before it listens.
            do { if case .postgres(let url) = location { _ = try PostgresHabitStore(url: url, readURL: replica) } } catch { throw CommandFailure("cannot read from --read-database: \(error)") }
        }
        let makeStore: @Sendable () throws -> any HabitStore = {
            switch location {
            case .postgres(let url): try PostgresHabitStore(url: url, readURL: replica)
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

        // Webhook deliveries and the events of ended days, on a thread and store connection of their own.
        let webhooks = WebhookSender(clock: environment.clock, makeStore: makeStore, makePolicies: { resolver.forAnotherOwner() },
                                     allowsLocal: apiOptions.allowsLocalWebhooks,
                                     push: WebhookSender.PushSettings(allowsLocal: apiOptions.allowsLocalPush,
                                                                      contact: apiOptions.pushContact ?? "mailto:stackday@\(options.host)"),
                                     log: { line in FileHandle.standardError.write(Data(("stackday serve: " + line + "\n").utf8)) })

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
        if let warning = webhooks.preparePush() { environment.io.error("stackday serve: \(warning)") }
        webhooks.start()
        environment.io.error("stackday serve: listening on \(tls == nil ? "http" : "https")://\(options.host):\(server.port) with \(options.threads) threads")
        if tls == nil, let warning = PlainHTTPWarning.text(host: options.host, port: server.port, behindProxy: try invocation[behindProxy] ?? false) {
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
                let replicaReads = replica == nil ? "" : PostgresReadRouting.metricsText
                return .text(api.metricsText(connections: server.connections) + replicaReads, contentType: "text/plain; version=0.0.4; charset=utf-8")
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
        webhooks.stop(grace: 2)
        _ = metricsServer?.stop(grace: 1)
        if !server.stop(grace: 3) {
            environment.io.error("stackday serve: a request was still running after 3 s; exiting without it")
            environment.io.flush()
        }
    }
}
