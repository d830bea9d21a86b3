import Foundation
import StackDay

/// Which user each credential the server has seen belongs to, so that its fair queue and its
/// limits count a user once however many tokens, sessions or spellings they send.
///
/// The queue asks on the thread that reads every connection, before any handler runs, so the
/// answer must come from memory: a credential is learned when a request with it authenticates,
/// and a credential not learned yet (or never valid) is keyed by the request's address instead.
/// Bounded: past `capacity` credentials it starts over, and credentials are learned again.
///
/// `@unchecked Sendable`: the map is read and written under `lock` only.
final class ClientDirectory: @unchecked Sendable {
    private let lock = NSLock()
    private var users: [String: UInt64] = [:]
    private let capacity: Int

    init(capacity: Int = 65_536) {
        self.capacity = capacity
    }

    /// The key of `user` for fairness: nonzero, the same for every credential of the user.
    static func key(ofUser user: String) -> UInt64 {
        var hash = FNV1a()
        hash.combine(user.utf8)
        return hash.value == 0 ? 1 : hash.value
    }

    /// Notes that `credential` (a token, or a session's id) authenticated as `user`.
    func learn(_ credential: String, user: String) {
        let key = Self.key(ofUser: user)
        lock.lock()
        defer { lock.unlock() }
        if users[credential] == key { return }
        if users.count >= capacity { users.removeAll(keepingCapacity: true) }
        users[credential] = key
    }

    /// The user key of `credential`, or 0 when it has not authenticated here.
    func key(of credential: String) -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        return users[credential] ?? 0
    }
}
