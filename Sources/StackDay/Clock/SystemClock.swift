import Foundation

/// The machine's clock.
public struct SystemClock: Clock {
    public init() {}
    public var now: Date { Date() }
}
