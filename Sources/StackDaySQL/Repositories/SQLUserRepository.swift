import Foundation
import StackDay

/// The store's users (`users`, keyed by name; the token's hash is unique) and their browser
/// sessions, in either store. Users are not owned: the table is the store's.
public final class SQLUserRepository: UserRepository {
    private let executor: any SQLExecutor
    private let statements: Statements

    private struct Statements: DialectStatements {
        static let sqlite = Statements(.sqlite), postgres = Statements(.postgres)

        let insert, update, delete, byName, byToken, byFeedToken, all: String
        let insertSession, session, deleteSession, sessionCount, deleteSessions: String
        let insertPairing, takePairing, deletePairings, deletePairingsOf, pairingCount: String
        let insertDevice, devices, device, deleteDevice, deleteDeviceSessions, touchDevice, deleteDevicesOf: String
        let insertRevoked, revoked, deleteRevokedOf: String
        let deleteWebhookDeliveriesOf, deleteWebhooksOf: String

        init(_ dialect: SQLDialect) {
            let columns = "name, token_sha256, time_zone, day_start_minutes, created_at, language, password_hash, feed_token, week_start, limits"
            func sql(_ text: String) -> String { dialect.statement(text) }
            insert = sql("INSERT INTO users (\(columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (name) DO NOTHING")
            update = sql("""
                UPDATE users SET token_sha256 = $2, time_zone = $3, day_start_minutes = $4, created_at = $5, language = $6, password_hash = $7,
                    feed_token = $8, week_start = $9, limits = $10 WHERE name = $1
                """)
            delete = sql("DELETE FROM users WHERE name = $1")
            byName = sql("SELECT \(columns) FROM users WHERE name = $1")
            byToken = sql("SELECT \(columns) FROM users WHERE token_sha256 = $1")
            byFeedToken = sql("SELECT \(columns) FROM users WHERE feed_token = $1")
            all = sql("SELECT \(columns) FROM users ORDER BY name")
            insertSession = sql("INSERT INTO sessions (id_sha256, user_name, csrf_token, created_at, expires_at, device_id) VALUES ($1, $2, $3, $4, $5, $6)")
            session = sql("SELECT id_sha256, user_name, csrf_token, created_at, expires_at, device_id FROM sessions WHERE id_sha256 = $1")
            deleteSession = sql("DELETE FROM sessions WHERE id_sha256 = $1")
            sessionCount = sql("SELECT count(*) AS sessions FROM sessions WHERE expires_at > $1")
            deleteSessions = sql("DELETE FROM sessions WHERE user_name = $1")
            insertPairing = sql("INSERT INTO pairing_codes (code_sha256, user_name, expires_at) VALUES ($1, $2, $3)")
            takePairing = sql("DELETE FROM pairing_codes WHERE code_sha256 = $1 RETURNING code_sha256, user_name, expires_at")
            deletePairings = sql("DELETE FROM pairing_codes WHERE expires_at <= $1")
            deletePairingsOf = sql("DELETE FROM pairing_codes WHERE user_name = $1")
            pairingCount = sql("SELECT count(*) AS codes FROM pairing_codes WHERE user_name = $1")
            let device = "id, user_name, name, token_sha256, created_at, last_seen_at"
            insertDevice = sql("INSERT INTO devices (\(device)) VALUES ($1, $2, $3, $4, $5, $6)")
            devices = sql("SELECT \(device) FROM devices WHERE user_name = $1 ORDER BY created_at DESC, id DESC")
            self.device = sql("SELECT \(device) FROM devices WHERE token_sha256 = $1")
            deleteDevice = sql("DELETE FROM devices WHERE id = $1")
            deleteDeviceSessions = sql("DELETE FROM sessions WHERE device_id = $1")
            touchDevice = sql("UPDATE devices SET last_seen_at = $2 WHERE id = $1")
            deleteDevicesOf = sql("DELETE FROM devices WHERE user_name = $1")
            insertRevoked = sql("INSERT INTO revoked_devices (token_sha256, user_name, name, revoked_at) VALUES ($1, $2, $3, $4) "
                                + "ON CONFLICT (token_sha256) DO UPDATE SET revoked_at = excluded.revoked_at")
            revoked = sql("SELECT user_name, name, revoked_at FROM revoked_devices WHERE token_sha256 = $1")
            deleteRevokedOf = sql("DELETE FROM revoked_devices WHERE user_name = $1")
            deleteWebhookDeliveriesOf = sql("DELETE FROM webhook_deliveries WHERE webhook_id IN (SELECT id FROM webhooks WHERE user_name = $1)")
            deleteWebhooksOf = sql("DELETE FROM webhooks WHERE user_name = $1")
        }
    }

    public init(executor: any SQLExecutor) {
        self.executor = executor
        statements = .of(executor.dialect)
    }

    private func values(_ user: User) -> [SQLValue] {
        [.text(user.name), .text(user.tokenSHA256), .text(user.timeZone), .integer(Int64(user.dayStart.minutes)), .instant(user.createdAt),
         .optional(user.language), .optional(user.passwordHash), .optional(user.feedToken), .text(user.weekStart.rawValue),
         .text(user.limits.text)]
    }

    private func decode(_ row: any SQLRow) throws -> User {
        let minutes = Int(row.integer("day_start_minutes"))
        guard let dayStart = try? DayStart(hour: minutes / 60, minute: minutes % 60) else {
            throw SQLRowError(table: "users", column: "day_start_minutes", value: String(minutes))
        }
        do {
            var user = try User(name: row.text("name"), tokenSHA256: row.text("token_sha256"), timeZone: row.text("time_zone"), dayStart: dayStart,
                                createdAt: row.instant("created_at"), language: row.optionalText("language"))
            user.passwordHash = row.optionalText("password_hash")
            user.feedToken = row.optionalText("feed_token")
            user.weekStart = WeekStart(rawValue: row.text("week_start")) ?? .monday
            user.limits = try UserLimits(text: row.text("limits"))
            return user
        } catch {
            throw SQLRowError(table: "users", column: "name or time_zone", value: "\(row.text("name")) \(row.text("time_zone"))")
        }
    }

    public func insert(_ user: User) throws {
        guard try executor.run(statements.insert, values(user)) == 1 else { throw UseCaseError.userExists(name: user.name) }
    }

    public func update(_ user: User) throws {
        guard try executor.run(statements.update, values(user)) == 1 else { throw UseCaseError.userNotFound(name: user.name) }
    }

    public func delete(named name: String) throws -> Bool {
        _ = try deleteSessions(of: name)
        try executor.run(statements.deletePairingsOf, [.text(name)])
        try executor.run(statements.deleteDevicesOf, [.text(name)])
        try executor.run(statements.deleteRevokedOf, [.text(name)])
        try executor.run(statements.deleteWebhookDeliveriesOf, [.text(name)])
        try executor.run(statements.deleteWebhooksOf, [.text(name)])
        return try executor.run(statements.delete, [.text(name)]) == 1
    }

    public func insertSession(_ session: UserSession) throws {
        guard try user(named: session.user) != nil else { throw UseCaseError.userNotFound(name: session.user) }
        try executor.run(statements.insertSession, [
            .text(session.idSHA256), .text(session.user), .text(session.csrfToken), .instant(session.createdAt), .instant(session.expiresAt),
            session.deviceID.map(SQLValue.id) ?? .null,
        ])
    }

    public func session(idSHA256: String) throws -> UserSession? {
        try executor.rows(statements.session, [.text(idSHA256)]) { row in
            UserSession(idSHA256: row.text("id_sha256"), user: row.text("user_name"), csrfToken: row.text("csrf_token"),
                        createdAt: row.instant("created_at"), expiresAt: row.instant("expires_at"),
                        deviceID: row.optionalText("device_id").flatMap(UUID.init(uuidString:)))
        }.first
    }

    public func deleteSession(idSHA256: String) throws -> Bool {
        try executor.run(statements.deleteSession, [.text(idSHA256)]) == 1
    }

    public func sessionCount(at now: Date) throws -> Int {
        Int(try executor.integer(statements.sessionCount, [.instant(now)], column: "sessions") ?? 0)
    }

    public func deleteSessions(of user: String) throws -> Int {
        try executor.run(statements.deleteSessions, [.text(user)])
    }

    public func user(named name: String) throws -> User? {
        try executor.rows(statements.byName, [.text(name)], decode).first
    }

    public func user(tokenSHA256 sha256: String) throws -> User? {
        try executor.rows(statements.byToken, [.text(sha256)], decode).first
    }

    public func user(feedToken: String) throws -> User? {
        try executor.rows(statements.byFeedToken, [.text(feedToken)], decode).first
    }

    public func all() throws -> [User] {
        try executor.rows(statements.all, [], decode)
    }

    public func insertPairing(_ pairing: PairingCode) throws {
        guard try user(named: pairing.user) != nil else { throw UseCaseError.userNotFound(name: pairing.user) }
        try executor.run(statements.insertPairing, [.text(pairing.codeSHA256), .text(pairing.user), .instant(pairing.expiresAt)])
    }

    public func pairingCount(of user: String) throws -> Int {
        Int(try executor.rows(statements.pairingCount, [.text(user)]) { $0.integer("codes") }.first ?? 0)
    }

    public func takePairing(codeSHA256: String) throws -> PairingCode? {
        try executor.rows(statements.takePairing, [.text(codeSHA256)]) { row in
            PairingCode(codeSHA256: row.text("code_sha256"), user: row.text("user_name"), expiresAt: row.instant("expires_at"))
        }.first
    }

    public func deletePairings(expiredAt now: Date) throws {
        try executor.run(statements.deletePairings, [.instant(now)])
    }

    public func insertDevice(_ device: UserDevice) throws {
        guard try user(named: device.user) != nil else { throw UseCaseError.userNotFound(name: device.user) }
        try executor.run(statements.insertDevice, [.id(device.id), .text(device.user), .text(device.name), .text(device.tokenSHA256),
                                                   .instant(device.createdAt), device.lastSeenAt.map(SQLValue.instant) ?? .null])
    }

    private func decodeDevice(_ row: any SQLRow) throws -> UserDevice {
        guard let id = UUID(uuidString: row.text("id")) else { throw SQLRowError(table: "devices", column: "id", value: row.text("id")) }
        return UserDevice(id: id, user: row.text("user_name"), name: row.text("name"), tokenSHA256: row.text("token_sha256"),
                          createdAt: row.instant("created_at"), lastSeenAt: row.isNull("last_seen_at") ? nil : row.instant("last_seen_at"))
    }

    public func devices(of user: String) throws -> [UserDevice] {
        try executor.rows(statements.devices, [.text(user)], decodeDevice)
    }

    public func device(tokenSHA256 sha256: String) throws -> UserDevice? {
        try executor.rows(statements.device, [.text(sha256)], decodeDevice).first
    }

    public func deleteDevice(id: UUID) throws -> Bool {
        try executor.run(statements.deleteDeviceSessions, [.id(id)])
        return try executor.run(statements.deleteDevice, [.id(id)]) == 1
    }

    public func touchDevice(id: UUID, at: Date) throws {
        try executor.run(statements.touchDevice, [.id(id), .instant(at)])
    }

    public func keepRevoked(_ device: UserDevice, at: Date) throws {
        try executor.run(statements.insertRevoked, [.text(device.tokenSHA256), .text(device.user), .text(device.name), .instant(at)])
    }

    public func revokedDevice(tokenSHA256 sha256: String) throws -> RevokedDevice? {
        try executor.rows(statements.revoked, [.text(sha256)]) {
            RevokedDevice(name: $0.text("name"), user: $0.text("user_name"), revokedAt: $0.instant("revoked_at"))
        }.first
    }
}
