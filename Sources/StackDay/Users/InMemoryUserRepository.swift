import Foundation

/// Users in memory, by name.
public final class InMemoryUserRepository: UserRepository {
    var storage: [String: User] = [:]
    var sessions: [String: UserSession] = [:]

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

    public func all() throws -> [User] {
        storage.values.sorted { $0.name < $1.name }
    }
}
