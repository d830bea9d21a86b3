import Foundation
import StackDay

/// A clock that moves only when a test moves it: events a test makes in turn are ordered by it,
/// not by how fast the machine runs.
public final class ManualClock: Clock, @unchecked Sendable {
    // Safe: `instant` is read and written under `lock` only.
    private let lock = NSLock()
    private var instant: Date

    public init(_ start: Date) {
        instant = start
    }

    public var now: Date { lock.withLock { instant } }

    /// Moves the clock on by `seconds`.
    public func advance(by seconds: TimeInterval) {
        lock.withLock { instant = instant.addingTimeInterval(seconds) }
    }
}
