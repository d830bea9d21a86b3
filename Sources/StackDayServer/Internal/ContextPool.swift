import Foundation
import StackDay
import StackDayEngine

/// The server threads' `OwnerContexts`: a request takes one, uses it on its thread, and gives it
/// back; there are never more than the server has threads, so each store connection and Lua
/// state is used by one thread at a time.
///
/// `@unchecked Sendable`: `free` is read and written only while `lock` is held; a taken
/// `OwnerContexts` belongs to the one request that took it.
final class ContextPool: @unchecked Sendable {
    private let lock = NSLock()
    private var free: [OwnerContexts] = []
    private let make: @Sendable () -> OwnerContexts

    init(make: @escaping @Sendable () -> OwnerContexts) {
        self.make = make
    }

    /// Runs `body` with a context no other thread is using. A context whose `body` threw a store
    /// failure (`StackDayAPI.isStoreFailure`: a lost connection, a file gone read-only) is
    /// dropped, so the next request opens the store anew and heals once the store does.
    func with<T>(_ body: (OwnerContexts) throws -> T) throws -> T {
        lock.lock()
        let contexts = free.popLast() ?? make()
        lock.unlock()
        do {
            let result = try body(contexts)
            give(back: contexts)
            return result
        } catch {
            if !StackDayAPI.isStoreFailure(error) { give(back: contexts) }
            throw error
        }
    }

    private func give(back contexts: OwnerContexts) {
        lock.lock()
        free.append(contexts)
        lock.unlock()
    }
}
