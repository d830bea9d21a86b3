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
            time zone. SIGTERM or SIGINT stops accepting, lets requests in flight finish (up to 10 s) and exits 0.
            One access line per request goes to stderr: method, path, status, milliseconds, user.
            """,
            options: [
                OptionSpec(name: "listen", valueName: "host:port", help: "The IPv4 address and port (default: 127.0.0.1:8080; port 0 picks a free one)."),
                OptionSpec(name: "threads", valueName: "n", help: "Threads answering requests (default: 4)."),
                OptionSpec(name: "max-body", valueName: "bytes", help: "The largest request body (default: 1048576)."),
                OptionSpec(name: "idle-timeout", valueName: "seconds", help: "How long an idle connection is kept (default: 30)."),
            ],
            run: run
        )
    }

    static func run(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        var options = HTTPServerOptions()
        if let listen = invocation.option("listen") {
            let parts = listen.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let port = Int(parts[1]), (0...65535).contains(port), !parts[0].isEmpty else {
                throw invocation.usage("invalid value for --listen: '\(listen)' (use HOST:PORT, e.g. 127.0.0.1:8080)")
            }
            options.host = String(parts[0])
            options.port = port
        }
        options.threads = try positive(invocation, "threads", default: 4, limit: 256)
        options.maxBody = try positive(invocation, "max-body", default: 1 << 20, limit: 1 << 30)
        options.idleTimeout = try positive(invocation, "idle-timeout", default: 30, limit: 3600)

        // Opened once here, so that a bad database stops the server before it listens.
        _ = try environment.store()
        let location = try environment.database()
        let makeStore: @Sendable () throws -> any HabitStore = {
            switch location {
            case .postgres(let url): try PostgresHabitStore(url: url)
            case .sqlite(let path): try SQLiteHabitStore(path: path)
            }
        }
        let folder = environment.userPolicyFolder
        let budget = try environment.policyBudget()
        let api = StackDayAPI(
            clock: environment.clock, makeStore: makeStore,
            makePolicies: { try PolicyLibrary(searchPath: [folder], budget: budget) },
            cachesAnswers: !invocation.globals.noCache,
            log: { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
        )

        // The signals are taken by sigwait below: block them before the server's threads start,
        // so that every thread inherits the mask.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let server = try HTTPServer(options: options) { api.handle($0) }
        environment.io.error("stackday serve: listening on http://\(options.host):\(server.port) with \(options.threads) threads")
        environment.io.flush()
        var received: Int32 = 0
        sigwait(&signals, &received)
        environment.io.error("stackday serve: \(received == SIGINT ? "SIGINT" : "SIGTERM"), finishing the requests in flight")
        server.stop(grace: 10)
    }

    static func positive(_ invocation: Invocation, _ name: String, default value: Int, limit: Int) throws -> Int {
        guard let text = invocation.option(name) else { return value }
        guard let number = Int(text), number >= 1, number <= limit else {
            throw invocation.usage("invalid value for --\(name): '\(text)' (a whole number from 1 to \(limit))")
        }
        return number
    }
}
