import Foundation

/// Names locked after failed sign-ins by password: five failures in a row lock the name for 15
/// minutes from the last one (whoever tries, from any address); a success clears the count. Kept
/// in memory by each server process, beside the throttle per address.
public final class SignInLock: @unchecked Sendable {
    // Safe: `failures` is read and written under `lock` only.
    private let lock = NSLock()
    private var failures: [String: (count: Int, last: Date)] = [:]

    public static let limit = 5
    public static let duration: TimeInterval = 15 * 60

    public init() {}

    /// When `name` opens again, while it is locked at `now`.
    public func lockedUntil(_ name: String, at now: Date) -> Date? {
        lock.lock()
        defer { lock.unlock() }
        guard let entry = failures[Self.key(name)] else { return nil }
        let until = entry.last.addingTimeInterval(Self.duration)
        if until <= now {
            if entry.count >= Self.limit { failures[Self.key(name)] = nil }
            return nil
        }
        return entry.count >= Self.limit ? until : nil
    }

    /// A failed sign-in as `name`; counts start again 15 minutes after the last failure.
    public func failed(_ name: String, at now: Date) {
        lock.lock()
        defer { lock.unlock() }
        let key = Self.key(name)
        let previous = failures[key].flatMap { $0.last.addingTimeInterval(Self.duration) > now ? $0.count : nil } ?? 0
        failures[key] = (previous + 1, now)
        // Bounded: an attacker naming endless accounts cannot grow the table without end.
        if failures.count > 100_000 { failures = failures.filter { $0.value.last.addingTimeInterval(Self.duration) > now } }
    }

    public func succeeded(_ name: String) {
        lock.lock()
        defer { lock.unlock() }
        failures[Self.key(name)] = nil
    }

    private static func key(_ name: String) -> String { name.precomposedStringWithCanonicalMapping }
}
