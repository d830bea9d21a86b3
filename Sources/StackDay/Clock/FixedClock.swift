import Foundation

/// A clock stopped at one instant, for tests and for `--now` on the command line.
public struct FixedClock: Clock {
    public let now: Date

    public init(_ now: Date) {
        self.now = now
    }
}
