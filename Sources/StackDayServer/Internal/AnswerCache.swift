import Foundation

/// Answers to `GET /v1/…` kept whole, keyed by everything they depend on: the user, the path and
/// query, the user's today and day boundary, and the user's change counter
/// (`HabitStore.changeCount`), which every write of that user bumps, from any process. A repeat
/// read of an unchanged user is a lookup.
///
/// The counter is read before the answer is computed, so an answer is never kept under a count
/// older than the data it reflects... only newer, which no later request asks for.
///
/// Bounded in bytes, not only in count: an answer over `largest` is never kept, and past `limit`
/// bytes (or `count` answers) everything kept is let go at once (keys of older counts are never
/// asked for again, so starting over loses little).
///
/// `@unchecked Sendable`: `answers` and `bytes` are read and written only while `lock` is held.
final class AnswerCache: @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [String: HTTPResponse] = [:]
    private var bytes = 0
    let count: Int
    let limit: Int
    let largest: Int

    init(count: Int = 2_000, limit: Int = 32 << 20, largest: Int = 1 << 20) {
        self.count = count
        self.limit = limit
        self.largest = largest
    }

    /// Bytes the kept answers hold (their bodies and keys).
    var heldBytes: Int {
        lock.lock()
        defer { lock.unlock() }
        return bytes
    }

    func answer(for key: String) -> HTTPResponse? {
        lock.lock()
        defer { lock.unlock() }
        return answers[key]
    }

    /// Keeps `response`; returns whether everything kept before was let go to make room.
    @discardableResult
    func keep(_ response: HTTPResponse, for key: String) -> Bool {
        let size = response.body.count + key.utf8.count + 64
        guard size <= largest else { return false }
        lock.lock()
        defer { lock.unlock() }
        var cleared = false
        if answers.count >= count || bytes + size > limit {
            cleared = !answers.isEmpty
            answers.removeAll()
            bytes = 0
        }
        if let old = answers.updateValue(response, forKey: key) { bytes -= old.body.count + key.utf8.count + 64 }
        bytes += size
        return cleared
    }
}
