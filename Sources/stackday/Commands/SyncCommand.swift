import Foundation
import StackDay
import StackDaySync
import StackDayApplication

/// `stackday sync`: this store's changes to a server and the server's back (docs/sync.md).
enum SyncCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "sync", abstract: "Send this store's changes to a StackDay server and take its changes back.",
            discussion: """
                The server is a `stackday serve`; the token is a user's there (`stackday user add` on the server), \
                whose habits this store's user then shares, or a device's own from --pair (kept in this store, so that \
                later syncs need neither --token nor --server). Each page is applied in its own transaction: an interrupted \
                sync is run again and repeats nothing. Prints what it pushed and pulled.
                """,
            run: run
        ).taking([server.declaration, cacert.declaration, allowInsecureHTTP.declaration, token.declaration, pair.declaration, deviceName.declaration,
                  newDevice.declaration])
    }

    static let server = option("server", "url", "The server, https://HOST[:PORT], or http:// on a trusted network (default: $STACKDAY_SERVER).")
    static let cacert = option("cacert", "file", "Certificate authorities (PEM) trusted besides the system's, for a server with its own (default: $STACKDAY_CACERT).")
    static let allowInsecureHTTP = RequestField<Bool>.flag(
        "allowInsecureHttp", help: "Sync over http:// with a server that is not on this machine (the token crosses the network readable).").commandLineOnly
    static let token = option("token", "token", "The server user's token (default: $STACKDAY_TOKEN, else the token a pairing kept in this store).")
    static let pair = option("pair", "code", "A code from the web app's Settings › Connect a device: exchanged once for this device's own token, which this store keeps (it is never printed).")
    static let deviceName = option("deviceName", "name", "With --pair: the name the server lists this device by (default: this machine's host name).")
    static let newDevice = RequestField<Bool>.flag(
        "newDevice", help: "Take a new device id and push and pull everything again (a copy of a store, a copied file or a backup put back, takes one by itself when it is recognised)."
    ).commandLineOnly

    /// Runs `body`; a server certificate it did not trust says what would make it trusted: the
    /// server's own authority given with --cacert when none was, else that the one given (or
    /// kept at pairing) did not sign it.
    static func trusting<T>(_ authorities: String?, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch SyncError.tlsFailed(let reason) where reason.contains("not trusted") {
            throw SyncError.tlsFailed(reason + (authorities == nil
                ? "; for a server with a certificate authority of its own, give its certificate with --cacert FILE (or $STACKDAY_CACERT)"
                : "; the certificate authority given with --cacert (or kept when this device was paired) did not sign it: give the server's with --cacert FILE"))
        }
    }

    static func option(_ key: String, _ valueName: String, _ help: String) -> RequestField<String> {
        RequestField<String>.text(key, help: help, valueName: valueName).commandLineOnly
    }

    static func run(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let variables = invocation.io.environment
        func variable(_ name: String) -> String? { variables[name].flatMap { $0.isEmpty ? nil : $0 } }
        let store = try environment.store()
        let code = try invocation[pair], givenToken = try invocation[token], givenName = try invocation[deviceName]
        if code != nil, givenToken != nil { throw invocation.usage("--pair and --token exclude each other: a pairing gives this device a token of its own") }
        if givenName != nil, code == nil { throw invocation.usage("--device-name goes with --pair") }
        // The server: as given, else the one server a pairing kept a token for.
        let saved = try store.read { tx in try tx.sync?.savedServers() ?? [] }
        guard let server = try invocation[server] ?? variable("STACKDAY_SERVER") ?? (saved.count == 1 ? saved[0] : nil) else {
            throw invocation.usage(saved.isEmpty ? "sync needs --server URL (or $STACKDAY_SERVER)"
                                                 : "sync needs --server URL: this store is paired with \(saved.joined(separator: ", "))")
        }
        // Certificate authorities: the file given (read now: a pairing keeps its certificates, not
        // its path), else what the pairing with this server kept.
        var authorities: String?
        if let file = try invocation[cacert] ?? variable("STACKDAY_CACERT") {
            guard FileManager.default.isReadableFile(atPath: file), let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw invocation.usage("invalid value for --cacert: '\(file)' cannot be read")
            }
            guard text.contains("-----BEGIN CERTIFICATE-----") else {
                throw invocation.usage("invalid value for --cacert: '\(file)' holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
            }
            authorities = text
        }
        let insecure = try invocation[allowInsecureHTTP] ?? false
        func transport(token: String) throws -> HTTPSyncTransport {
            let made: HTTPSyncTransport
            do {
                made = try HTTPSyncTransport(server: server, token: token, authorities: authorities)
            } catch let error as SyncError {
                if case .invalidRequest(let reason) = error, reason.contains("certificate authority") { throw invocation.usage("--cacert applies to an https:// server") }
                if case .invalidRequest(let reason) = error, reason.contains("token") { throw invocation.usage("invalid value for --token: a token is printable ASCII without spaces") }
                throw invocation.usage("invalid value for --server: '\(server)' (use https://HOST[:PORT], or http://HOST[:PORT] on a trusted network)")
            }
            if !made.isEncrypted, !made.isLoopback, !insecure {
                throw invocation.usage("refusing http:// to \(server): the token would cross the network unencrypted; use https://, or --allow-insecure-http on a network you trust")
            }
            return made
        }
        let token: String
        if let code {
            guard PairingCode.normalized(code) != nil else { throw invocation.usage("invalid value for --pair: '\(code)' is not a pairing code (8 letters and digits, like 7KQ2-M9XD)") }
            let pairing = try transport(token: "")
            let name = givenName ?? ProcessInfo.processInfo.hostName
            guard ManageDevices.isValidName(name) else { throw invocation.usage("invalid value for --device-name: use 1 to 64 printable characters") }
            do {
                token = try Self.trusting(authorities) { try pairing.pair(code: code, name: name) }
            } catch SyncError.refused(_, let refusal, _) where refusal == ErrorCode.pairingFailed.rawValue {
                throw UseCaseError.pairingFailed
            }
            try store.write { tx in try tx.sync?.saveCredential(SyncCredential(token: token, authorities: authorities), server: pairing.address) }
            environment.io.print(environment.words.say("Paired this device with {server}.", ("server", pairing.address)))
        } else {
            let kept = try store.read { tx in try tx.sync?.savedCredential(server: try transport(token: "").address) }
            guard let given = givenToken ?? variable("STACKDAY_TOKEN") ?? kept?.token else {
                throw invocation.usage("sync needs --token TOKEN (or $STACKDAY_TOKEN), or --pair CODE once")
            }
            guard HTTPSyncTransport.isToken(given) else { throw invocation.usage("invalid value for --token: a token is printable ASCII without spaces") }
            token = given
            if authorities == nil { authorities = kept?.authorities }
        }
        let transport = try transport(token: token)
        let client = SyncClient(store: store, server: transport.peer, transport: transport, newDevice: try invocation[newDevice] ?? false)
        // On a terminal, a line per phase: `pushing ▕███▁▁▏ 60% 98,000/164,443 changes · 9,000/s · 7 s left`.
        let lines = SyncProgressLines(pushing: ProgressLine(io: environment.io, label: "pushing", unit: "changes"),
                                      pulling: ProgressLine(io: environment.io, label: "pulling", unit: "changes"))
        let report: SyncReport
        do {
            defer { lines.end() }
            // Progress is followed only where it is shown (its total costs a read of the device's log).
            let listener: (@Sendable (SyncProgress) -> Void)? = environment.io.showsProgress ? { @Sendable progress in lines.show(progress) } : nil
            report = try Self.trusting(transport.authorities) { try client.syncWaiting(progress: listener) }
        }
        if environment.json { return environment.printJSON(report.json) }
        let words = environment.words
        func changes(_ count: Int) -> String { "\(count) \(count == 1 ? "change" : "changes")" }
        environment.io.print(words.say("Synced with {server}: pushed {pushed}, pulled {pulled}.", ("server", "\(server)"), ("pushed", changes(report.pushed)),
                                       ("pulled", changes(report.pulled)), ("pushedCount", "\(report.pushed)"), ("pulledCount", "\(report.pulled)")))
        // What healed by itself, said once.
        if report.copied {
            environment.io.print(words.say(SentenceWords.copied))
        }
        if report.restored {
            environment.io.print(words.say(SentenceWords.restored))
        }
        if report.restamped > 0 {
            environment.io.print(words.say(report.restamped == 1 ? SentenceWords.restampedOne : SentenceWords.restamped, ("count", "\(report.restamped)")))
        }
        // What the server decided beyond copying: a habit renamed (two habits of one name).
        for rename in report.renamed {
            environment.io.print(words.say("The server renamed '{from}' to '{to}' (another habit has that name, or it was renamed on the server).",
                                           ("from", rename.from), ("to", rename.to)))
        }
        for lost in report.overridden {
            environment.io.print(words.say("'{habit}': its {field} {mine}, set here, lost to {kept}, set later on another device.", ("habit", lost.habit),
                                           ("field", words[lost.field.label]), ("mine", lost.mine), ("kept", lost.kept)))
        }
        for refused in report.refused {
            let what = words[refused.kind == SyncKind.skip.rawValue ? "skip" : "record"]
            let day = refused.day.map { " (\($0))" } ?? ""
            let why = refused.code == SyncRefusal.habitDeleted ? words["the habit was deleted on another device"] : refused.code
            environment.io.print(words.say("A {what} of '{habit}'{day} was not kept by the server: {why}.", ("what", what), ("habit", refused.habit),
                                           ("day", day), ("why", why)))
        }
    }
}

/// The progress lines of one sync, told from the sync's task.
private final class SyncProgressLines: @unchecked Sendable {
    // Safe: the sync reports one page at a time from its one task, and `end` runs after it ended.
    private let pushing: ProgressLine
    private let pulling: ProgressLine
    private var pulled = false

    init(pushing: ProgressLine, pulling: ProgressLine) {
        self.pushing = pushing
        self.pulling = pulling
    }

    func show(_ progress: SyncProgress) {
        switch progress.phase {
        case .pushing:
            pushing.update(progress.done, of: progress.total)
        case .pulling:
            if !pulled { pushing.end() }
            pulled = true
            pulling.update(progress.done, of: nil)
        }
    }

    func end() {
        pushing.end()
        pulling.end()
    }
}
