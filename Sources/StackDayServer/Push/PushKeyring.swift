import Foundation
import StackDay

/// The server's VAPID key: the one kept in the store, made (from libcrypto) and kept the first
/// time one is needed. Two servers on one store that start at once keep one key between them.
enum PushKeyring {
    /// The store's key. Throws `PushCryptoError` when libcrypto is missing, store errors, and
    /// `UseCaseError.invalidPushSubscription` for a store that keeps no webhooks.
    static func key(in store: any HabitStore, at now: Date) throws -> PushServerKey {
        if let kept = try store.read({ try $0.webhooks?.pushKey() }) { return kept }
        let made = try PushServerKey.generate()
        return try store.write { tx in
            guard let webhooks = tx.webhooks else {
                throw UseCaseError.invalidPushSubscription(reason: "this store keeps no subscriptions (use a SQLite file or PostgreSQL)")
            }
            return try webhooks.keepPushKey(made, at: now)
        }
    }
}
