import Foundation

/// Counts events per key over a sliding minute: failed authentications per address, requests per
/// token. A key over its limit waits until its oldest counted event is a minute old.
///
/// `@unchecked Sendable`: every access to `events` holds `lock`.
final class Throttle: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [String: [Date]] = [:]
    let limit: Int
    let window: TimeInterval

    init(limit: Int, window: TimeInterval = 60) {
        self.limit = limit
        self.window = window
    }

    /// Seconds `key` must wait (nil: it may go on), at `now`.
    func wait(for key: String, at now: Date = Date()) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        let recent = (events[key] ?? []).filter { now.timeIntervalSince($0) < window }
        events[key] = recent.isEmpty ? nil : recent
        guard recent.count >= limit, let oldest = recent.first else { return nil }
        return max(1, Int((window - now.timeIntervalSince(oldest)).rounded(.up)))
    }

    /// Counts one event of `key`.
    func record(_ key: String, at now: Date = Date()) {
        lock.lock()
        defer { lock.unlock() }
        var recent = (events[key] ?? []).filter { now.timeIntervalSince($0) < window }
        recent.append(now)
        events[key] = recent
        // Bounded memory: forget the quietest keys first when many clients are counted.
        if events.count > 100_000 { events = events.filter { $0.value.count > 1 } }
    }
}
