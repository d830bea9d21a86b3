import Foundation
import Synchronization

/// Failed sign-ins by password, counted so that an attacker cannot turn them against the user
/// (OWASP's Authentication Cheat Sheet, "Account lockout" and "Device cookies"):
///
/// - five failures in a row for one name **from one address** lock that name from that address
///   for 15 minutes after the last (other addresses are not affected);
/// - failures for a name from anywhere only slow guessing: past ten in 15 minutes, a browser the
///   account never signed in from waits 2, 4, 8 … seconds (at most a minute) after the last
///   failure before it may try again;
/// - a browser that signed in to the account before (it carries the account's device cookie,
///   `PageRoutes.knownCookie`) is never slowed by failures from elsewhere.
///
/// A success clears the count for its name and address. Kept in memory by each server process,
/// beside the throttle per address (`FailedAuthentication`).
public final class SignInLock: Sendable {
    private struct Count {
        var failures: Int
        var last: Date
    }

    private let counts = Mutex([String: Count]())

    /// Failures from one address that lock the name there.
    public static let limit = 5
    public static let duration: TimeInterval = 15 * 60
    /// Failures from anywhere before the account's growing delay begins.
    public static let slowAfter = 10
    public static let longestDelay: TimeInterval = 60

    public init() {}

    /// When `name` may be tried again from `address` at `now`, while it may not; `known`: the
    /// browser carries the account's device cookie.
    public func lockedUntil(_ name: String, address: String, known: Bool = false, at now: Date) -> Date? {
        counts.withLock { counts in
            var until: Date?
            if let pair = Self.live(counts[Self.key(name, address)], at: now), pair.failures >= Self.limit {
                until = pair.last.addingTimeInterval(Self.duration)
            }
            if !known, let account = Self.live(counts[Self.key(name, nil)], at: now), account.failures > Self.slowAfter {
                let delay = min(Self.longestDelay, pow(2, Double(account.failures - Self.slowAfter)))
                let open = account.last.addingTimeInterval(delay)
                if open > now { until = max(until ?? open, open) }
            }
            return until
        }
    }

    /// A failed sign-in as `name` from `address`; counts start again 15 minutes after the last failure.
    public func failed(_ name: String, address: String, at now: Date) {
        counts.withLock { counts in
            for key in [Self.key(name, address), Self.key(name, nil)] {
                counts[key] = Count(failures: (Self.live(counts[key], at: now)?.failures ?? 0) + 1, last: now)
            }
            // Bounded: an attacker naming endless accounts cannot grow the table without end.
            if counts.count > 100_000 { counts = counts.filter { $0.value.last.addingTimeInterval(Self.duration) > now } }
        }
    }

    /// A sign-in as `name` from `address` succeeded: that address starts again. (The account's
    /// count from elsewhere stays: a success here says nothing of the guesses made there.)
    public func succeeded(_ name: String, address: String) {
        _ = counts.withLock { $0.removeValue(forKey: Self.key(name, address)) }
    }

    private static func live(_ count: Count?, at now: Date) -> Count? {
        guard let count, count.last.addingTimeInterval(duration) > now else { return nil }
        return count
    }

    private static func key(_ name: String, _ address: String?) -> String {
        name.precomposedStringWithCanonicalMapping + "\n" + (address ?? "*")
    }
}
