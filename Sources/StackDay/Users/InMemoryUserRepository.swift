import Foundation

/// Users in memory, by name.
public final class InMemoryUserRepository: UserRepository {
    var storage: [String: User] = [:]
    var sessions: [String: UserSession] = [:]
    var pairings: [String: PairingCode] = [:]
    var devices: [UUID: UserDevice] = [:]
    var revoked: [String: RevokedDevice] = [:]
    /// Told of each user removed (the store's webhooks go with their user).
    var removed: (String) -> Void = { _ in }

    public init() {}

    public func insert(_ user: User) throws {
        guard storage[user.name] == nil else { throw UseCaseError.userExists(name: user.name) }
        storage[user.name] = user
    }

    public func update(_ user: User) throws {
        guard storage[user.name] != nil else { throw UseCaseError.userNotFound(name: user.name) }
        storage[user.name] = user
    }

    public func delete(named name: String) throws -> Bool {
        _ = try deleteSessions(of: name)
        pairings = pairings.filter { $0.value.user != name }
        devices = devices.filter { $0.value.user != name }
        revoked = revoked.filter { $0.value.user != name }
        removed(name)
        return storage.removeValue(forKey: name) != nil
    }

    public func insertSession(_ session: UserSession) throws {
        guard storage[session.user] != nil else { throw UseCaseError.userNotFound(name: session.user) }
        sessions[session.idSHA256] = session
    }

    public func session(idSHA256: String) throws -> UserSession? { sessions[idSHA256] }

    public func deleteSession(idSHA256: String) throws -> Bool { sessions.removeValue(forKey: idSHA256) != nil }

    public func sessionCount(at now: Date) throws -> Int { sessions.values.filter { $0.expiresAt > now }.count }

    public func deleteSessions(of user: String) throws -> Int {
        let ids = sessions.values.filter { $0.user == user }.map(\.idSHA256)
        ids.forEach { sessions[$0] = nil }
        return ids.count
    }

    public func user(named name: String) throws -> User? { storage[name] }

    public func user(tokenSHA256 sha256: String) throws -> User? {
        storage.values.first { $0.tokenSHA256 == sha256 }
    }

    public func user(feedToken: String) throws -> User? {
        storage.values.first { $0.feedToken == feedToken }
    }

    public func all() throws -> [User] {
        storage.values.sorted { $0.name < $1.name }
    }

    public func insertPairing(_ pairing: PairingCode) throws {
        guard storage[pairing.user] != nil else { throw UseCaseError.userNotFound(name: pairing.user) }
        pairings[pairing.codeSHA256] = pairing
    }

    public func takePairing(codeSHA256: String) throws -> PairingCode? { pairings.removeValue(forKey: codeSHA256) }

    public func deletePairings(expiredAt now: Date) throws { pairings = pairings.filter { $0.value.expiresAt > now } }

    public func pairingCount(of user: String) throws -> Int { pairings.values.count { $0.user == user } }

    public func insertDevice(_ device: UserDevice) throws {
        guard storage[device.user] != nil else { throw UseCaseError.userNotFound(name: device.user) }
        devices[device.id] = device
    }

    public func devices(of user: String) throws -> [UserDevice] {
        devices.values.filter { $0.user == user }.sorted { ($0.createdAt, $0.id.uuidString) > ($1.createdAt, $1.id.uuidString) }
    }

    public func device(tokenSHA256 sha256: String) throws -> UserDevice? { devices.values.first { $0.tokenSHA256 == sha256 } }

    public func deleteDevice(id: UUID) throws -> Bool {
        sessions = sessions.filter { $0.value.deviceID != id }
        return devices.removeValue(forKey: id) != nil
    }

    public func touchDevice(id: UUID, at: Date) throws { devices[id]?.lastSeenAt = at }

    public func keepRevoked(_ device: UserDevice, at: Date) throws {
        revoked[device.tokenSHA256] = RevokedDevice(name: device.name, user: device.user, revokedAt: at)
    }

    public func revokedDevice(tokenSHA256 sha256: String) throws -> RevokedDevice? { revoked[sha256] }
}
