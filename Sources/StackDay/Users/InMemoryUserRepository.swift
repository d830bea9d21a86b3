/// Users in memory, by name.
public final class InMemoryUserRepository: UserRepository {
    var storage: [String: User] = [:]

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
        storage.removeValue(forKey: name) != nil
    }

    public func user(named name: String) throws -> User? { storage[name] }

    public func user(tokenSHA256 sha256: String) throws -> User? {
        storage.values.first { $0.tokenSHA256 == sha256 }
    }

    public func all() throws -> [User] {
        storage.values.sorted { $0.name < $1.name }
    }
}
