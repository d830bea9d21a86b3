import Foundation

/// The source of the current instant. Turning it into "today" is the caller's job, with a `DayBoundary`.
public protocol Clock: Sendable {
    var now: Date { get }
}
