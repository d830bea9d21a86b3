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
            environment.io.print(environment.words.language == .korean ? "\(pairing.address)에 이 기기를 연결했습니다." : "Paired this device with \(pairing.address).")
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
            report = try Self.trusting(transport.authorities) { try client.syncWaiting { lines.show($0) } }
        }
        if environment.json { return environment.printJSON(report.json) }
        let words = environment.words
        environment.io.print(words.language == .korean
            ? "동기화했습니다: 보낸 변경 \(report.pushed)건, 받은 변경 \(report.pulled)건"
            : "Synced with \(server): pushed \(report.pushed) \(report.pushed == 1 ? "change" : "changes"), pulled \(report.pulled) \(report.pulled == 1 ? "change" : "changes").")
        // What healed by itself, said once.
        if report.copied {
            environment.io.print(words.language == .korean
                ? "이 저장소는 같은 기기 ID로 동기화하던 다른 저장소의 사본(복사한 파일 또는 되살린 백업)이었습니다. 이제 자기 ID로 동기화하며, 가진 것을 모두 다시 보냈습니다."
                : "This store was a copy of another that syncs under the same device id (a copied file, or a backup put back): it now syncs under an id of its own, and sent everything it holds again.")
        }
        if report.restored {
            environment.io.print(words.language == .korean
                ? "서버가 백업에서 복원되었습니다. 서버가 잃은 것을 되찾도록 이 기기가 가진 것을 모두 보냈습니다."
                : "The server was restored from a backup: this device sent everything it holds, so that what the server lost is back.")
        }
        if report.restamped > 0 {
            environment.io.print(words.language == .korean
                ? "앞서 가 있던 시계로 기록한 변경 \(report.restamped)건을 서버 시계에 맞춰 다시 찍었습니다."
                : "\(report.restamped) \(report.restamped == 1 ? "change" : "changes") stamped while this device's clock ran ahead \(report.restamped == 1 ? "was" : "were") stamped again by the server's clock.")
        }
        // What the server decided beyond copying: a habit renamed (two habits of one name).
        for rename in report.renamed {
            environment.io.print(words.language == .korean
                ? "서버가 '\(rename.from)'의 이름을 '\(rename.to)'(으)로 바꾸었습니다"
                : "The server renamed '\(rename.from)' to '\(rename.to)' (another habit has that name, or it was renamed on the server).")
        }
        let korean = ["name": "이름", "started_on": "시작일", "archived_on": "보관일", "unit": "단위", "color_tag": "색", "step_thousandths": "기록 단계",
                      "position": "목록 순서", "question": "질문", "description": "설명"]
        for lost in report.overridden {
            let field = (SyncDecided.label(field: lost.field), korean[lost.field] ?? lost.field)
            environment.io.print(words.language == .korean
                ? "'\(lost.habit)': 이 기기에서 바꾼 \(field.1) \(lost.mine) 대신 다른 기기에서 나중에 바꾼 \(lost.kept)을(를) 남겼습니다"
                : "'\(lost.habit)': its \(field.0) \(lost.mine), set here, lost to \(lost.kept), set later on another device.")
        }
        for refused in report.refused {
            let what = refused.kind == SyncKind.skip.rawValue ? (words.language == .korean ? "건너뛰기" : "skip") : (words.language == .korean ? "기록" : "record")
            let day = refused.day.map { " (\($0))" } ?? ""
            environment.io.print(words.language == .korean
                ? "'\(refused.habit)'의 \(what)\(day)은(는) 서버에 남지 않았습니다: \(refused.code == SyncRefusal.habitDeleted ? "다른 기기에서 습관을 삭제했습니다" : refused.code)"
                : "A \(what) of '\(refused.habit)'\(day) was not kept by the server: \(refused.code == SyncRefusal.habitDeleted ? "the habit was deleted on another device" : refused.code).")
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
