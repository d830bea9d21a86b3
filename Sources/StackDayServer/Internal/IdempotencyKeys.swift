import Foundation
import StackDay

/// The answers of writes sent with an `Idempotency-Key`, per user, for 24 hours: a retry with the
/// same key and the same request gets the first answer again and writes nothing.
///
/// A key is taken when its request starts: a second request with it while the first is being
/// answered is refused (409), one with another method, path or body is refused (422). Only a
/// successful answer (2xx) is kept; a failed write wrote nothing, so its key is let go and a
/// retry runs again. Kept in memory and bounded: past `capacity` keys the oldest go first.
///
/// `@unchecked Sendable`: every field is read and written under `lock`.
final class IdempotencyKeys: @unchecked Sendable {
    enum Claim {
        /// Run the request, then `finish` (or `release`) the key.
        case run
        /// The first answer, to send again.
        case replay(HTTPResponse)
        /// A refusal to send instead.
        case refuse(ErrorCode, String)
    }

    private struct Entry {
        let fingerprint: SHA256
        var answer: HTTPResponse?
        var expires: Date
    }

    /// How long a key is kept.
    static let lifetime: TimeInterval = 24 * 3600
    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    /// Keys in the order they were taken, for expiry and the bound.
    private var order: [String] = []
    private var orderStart = 0
    private let capacity: Int

    init(capacity: Int = 100_000) {
        self.capacity = capacity
    }

    /// Whether `key` is one a client may send: 1 to 255 visible ASCII characters.
    static func isValid(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.count <= 255 && key.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// What the request `request` of `user` with `key` should do, at `now`.
    func claim(_ key: String, user: String, request: HTTPRequest, now: Date) -> Claim {
        let id = user + "\u{0}" + key
        let fingerprint = SHA256(of: Array(request.method.utf8) + [0] + Array(request.path.utf8) + [0] + request.body)
        lock.lock()
        defer { lock.unlock() }
        expire(now)
        if let entry = entries[id] {
            guard entry.fingerprint == fingerprint else {
                return .refuse(.idempotencyKeyReused, "this Idempotency-Key was used with another request (method, path or body); use a new key for a new request")
            }
            guard let answer = entry.answer else {
                return .refuse(.idempotencyKeyInUse, "a request with this Idempotency-Key is still being answered; retry once it is")
            }
            return .replay(answer)
        }
        entries[id] = Entry(fingerprint: fingerprint, answer: nil, expires: now.addingTimeInterval(Self.lifetime))
        order.append(id)
        return .run
    }

    /// Keeps `answer` for the key `claim` answered `.run` for; a failure lets the key go. A
    /// redirect is a success (a web form's answer to a change it made).
    func finish(_ key: String, user: String, answer: HTTPResponse) {
        let id = user + "\u{0}" + key
        lock.lock()
        defer { lock.unlock() }
        if (200..<400).contains(answer.status) {
            entries[id]?.answer = answer
        } else {
            entries[id] = nil
        }
    }

    /// Drops what has expired, and the oldest keys past the bound (with the lock held).
    private func expire(_ now: Date) {
        while orderStart < order.count {
            let id = order[orderStart]
            guard let entry = entries[id] else {
                orderStart += 1
                continue
            }
            guard entry.expires <= now || entries.count > capacity else { break }
            entries[id] = nil
            orderStart += 1
        }
        if orderStart > 1024 && orderStart * 2 > order.count {
            order.removeFirst(orderStart)
            orderStart = 0
        }
    }
}
