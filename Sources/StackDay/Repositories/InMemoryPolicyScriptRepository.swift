import Foundation

/// Policy scripts in memory, by hash.
public final class InMemoryPolicyScriptRepository: PolicyScriptRepository {
    var storage: [String: PolicyScript] = [:]

    public init() {}

    public func insert(_ script: PolicyScript) throws {
        if storage[script.sha256] == nil { storage[script.sha256] = script }
    }

    public func script(sha256: String) throws -> PolicyScript? { storage[sha256] }

    public func all() throws -> [PolicyScript] {
        storage.values.sorted { ($0.installedAt, $0.name, $0.sha256) < ($1.installedAt, $1.name, $1.sha256) }
    }

    public func deleteAll() throws { storage.removeAll() }

    public func markInstalled(sha256: String, at: Date) throws {
        guard let held = storage[sha256] else { return }
        storage[sha256] = held.installed(at: held.installed ? max(held.installedAt, at) : at)
    }
}
