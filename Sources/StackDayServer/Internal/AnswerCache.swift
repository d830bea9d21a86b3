import Foundation

/// Answers to `GET /v1/…` kept whole, keyed by everything they depend on: the user, the path and
/// query, the user's today and day boundary, and the user's change counter
/// (`HabitStore.changeCount`), which every write of that user bumps, from any process. A repeat
/// read of an unchanged user is a lookup.
///
/// The counter is read before the answer is computed, so an answer is never kept under a count
/// older than the data it reflects... only newer, which no later request asks for.
///
/// `@unchecked Sendable`: `answers` is read and written only while `lock` is held.
final class AnswerCache: @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [String: HTTPResponse] = [:]
    let limit: Int

    init(limit: Int = 2_000) {
        self.limit = limit
    }

    func answer(for key: String) -> HTTPResponse? {
        lock.lock()
        defer { lock.unlock() }
        return answers[key]
    }

    func keep(_ response: HTTPResponse, for key: String) {
        lock.lock()
        defer { lock.unlock() }
        // Keys of older counts are never asked for again: past the limit, start over.
        if answers.count >= limit { answers.removeAll(keepingCapacity: true) }
        answers[key] = response
    }
}
