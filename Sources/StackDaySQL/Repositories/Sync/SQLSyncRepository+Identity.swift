import Foundation
import StackDay

/// Who syncs with whom: the servers a device knows and the tokens it keeps, a server's identity,
/// epoch and marks, what it took from each device, and the clock and id a store syncs under.
extension SQLSyncRepository {
    public func keepDecided(_ decided: SyncDecided) throws {
        try executor.run(sql("UPDATE sync_owners SET decided = $2 WHERE \(ownerColumn) = $1"), [owner, .text(decided.json.jsonText)])
    }

    public func lastDecided() throws -> SyncDecided? {
        let kept = try executor.rows(sql("SELECT decided FROM sync_owners WHERE \(ownerColumn) = $1 AND decided IS NOT NULL"), [owner]) { $0.text("decided") }
        return kept.first.flatMap { try? JSONValue(parsing: $0) }.flatMap(SyncDecided.init(json:))
    }


    public func peer(_ server: String) throws -> SyncPeer {
        try executor.rows(sql("SELECT pushed_through, position, epoch, previous, mark FROM sync_peers WHERE \(ownerColumn) = $1 AND server = $2"),
                          [owner, .text(server)]) {
            SyncPeer(pushedThrough: $0.integer("pushed_through"), position: $0.integer("position"), epoch: $0.optionalText("epoch"),
                     previous: $0.optionalText("previous"), mark: $0.optionalText("mark"))
        }.first ?? SyncPeer()
    }

    public func setPeer(_ server: String, _ peer: SyncPeer) throws {
        try executor.run(sql("""
            INSERT INTO sync_peers (\(ownerColumn), server, pushed_through, position, epoch, previous, mark) VALUES ($1, $2, $3, $4, $5, $6, $7)
            ON CONFLICT (\(ownerColumn), server) DO UPDATE SET pushed_through = excluded.pushed_through, position = excluded.position,
                epoch = excluded.epoch, previous = excluded.previous, mark = excluded.mark
            """), [owner, .text(server), .integer(peer.pushedThrough), .integer(peer.position), peer.epoch.map(SQLValue.text) ?? .null,
                   peer.previous.map(SQLValue.text) ?? .null, peer.mark.map(SQLValue.text) ?? .null])
    }

    public func savedCredential(server: String) throws -> SyncCredential? {
        try executor.rows(sql("SELECT token, authorities FROM sync_credentials WHERE \(ownerColumn) = $1 AND server = $2"), [owner, .text(server)]) { row in
            SyncCredential(token: row.text("token"), authorities: row.optionalText("authorities"))
        }.first
    }

    public func saveCredential(_ credential: SyncCredential, server: String) throws {
        try executor.run(sql("""
            INSERT INTO sync_credentials (\(ownerColumn), server, token, authorities) VALUES ($1, $2, $3, $4)
            ON CONFLICT (\(ownerColumn), server) DO UPDATE SET token = excluded.token, authorities = excluded.authorities
            """), [owner, .text(server), .text(credential.token), .optional(credential.authorities)])
    }

    public func savedServers() throws -> [String] {
        try executor.rows(sql("SELECT server FROM sync_credentials WHERE \(ownerColumn) = $1 ORDER BY server"), [owner]) { $0.text("server") }
    }

    public func identity(store: String?) throws -> SyncServerIdentity {
        let kept = try executor.rows(sql("SELECT id, epoch, store FROM sync_server"), []) { ($0.text("id"), $0.text("epoch"), $0.text("store")) }.first
        guard let (id, epoch, known) = kept else {
            let made = SyncServerIdentity(id: UUID().uuidString.lowercased(), epoch: UUID().uuidString.lowercased())
            try executor.run(sql("INSERT INTO sync_server (id, epoch, store) VALUES ($1, $2, $3)"), [.text(made.id), .text(made.epoch), .text(store ?? "")])
            return made
        }
        guard let store, store != known else { return SyncServerIdentity(id: id, epoch: epoch) }
        // Not the store the epoch was made in: restored, copied or moved.
        try executor.run(sql("UPDATE sync_server SET store = $1"), [.text(store)])
        return try newEpoch()
    }

    public func mark(at position: Int64, make: Bool) throws -> String? {
        let select = sql("SELECT mark FROM sync_marks WHERE \(ownerColumn) = $1 AND seq = $2")
        if let kept = try executor.rows(select, [owner, .integer(position)], { $0.text("mark") }).first { return kept }
        guard make else { return nil }
        let made = UUID().uuidString.lowercased()
        try executor.run(sql("INSERT INTO sync_marks (\(ownerColumn), seq, mark) VALUES ($1, $2, $3)"), [owner, .integer(position), .text(made)])
        return made
    }

    public func newEpoch() throws -> SyncServerIdentity {
        let epoch = UUID().uuidString.lowercased()
        try executor.run(sql("UPDATE sync_server SET epoch = $1"), [.text(epoch)])
        let id = try executor.rows(sql("SELECT id FROM sync_server"), []) { $0.text("id") }.first ?? ""
        return SyncServerIdentity(id: id, epoch: epoch)
    }

    public func received(from device: String, at seqs: [Int64]) throws -> [Int64: Int64] {
        var found: [Int64: Int64] = [:]
        let select = "SELECT seq, fingerprint FROM sync_received WHERE \(ownerColumn) = $1 AND device = $2 AND seq = "
        for start in stride(from: 0, to: seqs.count, by: 50) {
            let chunk = seqs[start..<min(seqs.count, start + 50)]
            let rows = try executor.rows(sql(lookups(select, count: chunk.count, first: 3, value: .count)), [owner, .text(device)] + chunk.map(SQLValue.integer)) {
                ($0.integer("seq"), $0.integer("fingerprint"))
            }
            for (seq, fingerprint) in rows { found[seq] = fingerprint }
        }
        return found
    }

    public func retire(device: String, for successor: String) throws -> Int {
        // Once for each store that leaves the id: a second copy leaving it later brings what it
        // pushed under it (and the first copy's since) to the ones that keep it.
        guard try executor.rows(sql("SELECT device FROM sync_retired WHERE \(ownerColumn) = $1 AND device = $2 AND successor = $3"),
                                [owner, .text(device), .text(successor)], { $0.text("device") }).isEmpty else { return 0 }
        try executor.run(sql("INSERT INTO sync_retired (\(ownerColumn), device, successor) VALUES ($1, $2, $3)"), [owner, .text(device), .text(successor)])
        // What was taken under the id mixed two stores' writes: the one that keeps it starts afresh.
        try executor.run(sql("DELETE FROM sync_received WHERE \(ownerColumn) = $1 AND device = $2"), [owner, .text(device)])
        let end = try position()
        guard let first = try executor.integer(sql("SELECT min(seq) AS first FROM sync_entities WHERE \(ownerColumn) = $1 AND device = $2"),
                                               [owner, .text(device)], column: "first") else { return 0 }
        // Past the log's end, in the order they were logged: every other device, the store that
        // keeps the id included, pulls them.
        let moved = try executor.run(sql("""
            UPDATE sync_entities SET seq = seq + $3, device = $4, own = NULL WHERE \(ownerColumn) = $1 AND device = $2
            """), [owner, .text(device), .integer(end + 1 - first), .text(SyncRules.serverDevice)])
        // A habit or group moved past the end goes with its revisions: those logged before it (by
        // other devices) follow it, so that a store that never held it pulls its rules with it.
        var next = try executor.integer(sql("SELECT max(seq) AS last FROM sync_entities WHERE \(ownerColumn) = $1"), [owner], column: "last") ?? end
        for parent in [SyncKind.habit, .group] {
            guard let revisions = Self.revisionKind(of: parent) else { continue }
            let keys = try executor.rows(sql("SELECT key FROM sync_entities WHERE \(ownerColumn) = $1 AND kind = $2 AND seq > $3 AND deleted = 0"),
                                         [owner, .text(parent.rawValue), .integer(end)]) { $0.text("key") }
            for key in keys {
                for entry in try earlierRevisions(revisions, of: key, below: .max, after: 0) where entry.seq <= end {
                    next += 1
                    try executor.run(sql("UPDATE sync_entities SET seq = $4 WHERE \(ownerColumn) = $1 AND kind = $2 AND key = $3"),
                                     [owner, .text(revisions.rawValue), .text(entry.key), .integer(next)])
                }
            }
        }
        try executor.run(sql("""
            UPDATE sync_owners SET seq = coalesce((SELECT max(seq) FROM sync_entities WHERE \(ownerColumn) = $1), seq) WHERE \(ownerColumn) = $1
            """), [owner])
        return moved
    }

    public func lastReceived(from device: String) throws -> Int64? {
        try executor.integer(sql("SELECT max(seq) AS last FROM sync_received WHERE \(ownerColumn) = $1 AND device = $2"), [owner, .text(device)], column: "last")
    }

    public func receive(_ fingerprints: [Int64: Int64], from device: String) throws {
        let sorted = fingerprints.sorted { $0.key < $1.key }
        for start in stride(from: 0, to: sorted.count, by: 100) {
            let chunk = sorted[start..<min(sorted.count, start + 100)]
            var values: [SQLValue] = [owner, .text(device)]
            values.reserveCapacity(2 + chunk.count * 2)
            for (seq, fingerprint) in chunk { values += [.integer(seq), .integer(fingerprint)] }
            try executor.run(receiveStatement(rows: chunk.count), values)
        }
    }

    /// The statement keeping `count` fingerprints at once, written once for each count (a first
    /// sync keeps them a batch at a time, thousands of times).
    private func receiveStatement(rows count: Int) -> String {
        let name = "received/\(count)"
        if let known = inserts[name] { return known }
        let rows = (0..<count).map { "($1, $2, $\(3 + $0 * 2), $\(4 + $0 * 2))" }
        let statement = sql("""
            INSERT INTO sync_received (\(ownerColumn), device, seq, fingerprint) VALUES \(rows.joined(separator: ", "))
            ON CONFLICT (\(ownerColumn), device, seq) DO UPDATE SET fingerprint = excluded.fingerprint
            """)
        inserts[name] = statement
        return statement
    }

    public func currentTime() -> Int64 { now() }

    public func hybridTime() throws -> Int64 {
        try executor.integer(sql("SELECT hlc FROM sync_owners WHERE \(ownerColumn) = $1"), [owner], column: "hlc") ?? 0
    }

    public func rebaseClock(to hlc: Int64, device: String, after position: Int64) throws -> Int {
        let ahead = try executor.rows(sql("""
            SELECT kind, key FROM sync_entities WHERE \(ownerColumn) = $1 AND device = $2 AND seq > $3 AND hlc > $4 ORDER BY seq
            """), [owner, .text(device), .integer(position), .integer(hlc)]) { ($0.text("kind"), $0.text("key")) }
        var next = hlc
        for (kind, key) in ahead {
            next += 1
            try executor.run(sql("UPDATE sync_entities SET hlc = $4 WHERE \(ownerColumn) = $1 AND kind = $2 AND key = $3"),
                             [owner, .text(kind), .text(key), .integer(next)])
            // A field stamp that far ahead is one of this store's own writes, whatever id it was made
            // under (a store that took a new id keeps the stamps it made under the old one).
            if kind == SyncKind.habit.rawValue {
                try executor.run(sql("UPDATE sync_fields SET hlc = $3 WHERE \(ownerColumn) = $1 AND habit = $2 AND hlc > $4"),
                                 [owner, .text(key), .integer(next), .integer(hlc)])
            }
        }
        try executor.run(sql("UPDATE sync_fields SET hlc = $2 WHERE \(ownerColumn) = $1 AND hlc > $2"), [owner, .integer(next)])
        try executor.run(sql("UPDATE sync_owners SET hlc = $2 WHERE \(ownerColumn) = $1"), [owner, .integer(next)])
        return ahead.count
    }

    public func moveDevice(to device: String) throws -> String {
        let old = try start { device }
        guard old != device else { return old }
        try executor.run(sql("UPDATE sync_owners SET device = $2 WHERE \(ownerColumn) = $1"), [owner, .text(device)])
        try executor.run(sql("UPDATE sync_entities SET device = $3 WHERE \(ownerColumn) = $1 AND device = $2"), [owner, .text(old), .text(device)])
        // Everything goes to every server again under the new id, and everything is pulled again:
        // what a copy under the old id pushed was taken for this store's own and never pulled.
        try executor.run(sql("UPDATE sync_peers SET pushed_through = 0, position = 0, mark = NULL, previous = $2 WHERE \(ownerColumn) = $1"), [owner, .text(old)])
        return old
    }
}
