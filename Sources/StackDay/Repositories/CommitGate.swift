import Foundation

/// Whether the work running on this thread may still commit a transaction.
///
/// A server that gives up on a request at a deadline answers it at once (503), while the thread
/// that was answering it may still be running. Whatever that thread would write must then never
/// be written: the client was told it failed. So every store asks the gate right before a
/// transaction commits, and a server binds the gate around each request: the first commit claims
/// the request (from then on it is answered with its result, however long that takes), and a
/// request given up before that claims nothing and rolls back.
///
/// Outside a bound gate (the command line, the libraries) every commit may go ahead.
///
/// The gate is kept per thread (its thread dictionary), not as a task-local value: servers answer
/// on threads their C layer starts, where no Swift task runs.
public enum CommitGate {
    private static let key = "StackDay.CommitGate.claim"

    /// A claim bound to a thread.
    private final class Claim {
        let claim: @Sendable () -> Bool
        init(_ claim: @escaping @Sendable () -> Bool) { self.claim = claim }
    }

    /// Runs `body` with `claim` as this thread's gate: `claim` answers whether the work may still
    /// commit (claiming the right to, the first time it says yes).
    public static func withClaim<T>(_ claim: @escaping @Sendable () -> Bool, _ body: () throws -> T) rethrows -> T {
        let dictionary = Thread.current.threadDictionary
        let previous = dictionary[key]
        dictionary[key] = Claim(claim)
        defer { dictionary[key] = previous }
        return try body()
    }

    /// This thread's claim, to bind on another thread that does this thread's work while it waits.
    public static var current: (@Sendable () -> Bool)? {
        (Thread.current.threadDictionary[key] as? Claim)?.claim
    }

    /// Throws `CommitRefused` when the request this thread answers has been given up; called by
    /// stores right before a transaction commits (the outermost one only).
    public static func check() throws {
        if let bound = Thread.current.threadDictionary[key] as? Claim, !bound.claim() { throw CommitRefused() }
    }
}

/// A transaction that was not committed because its request had already been given up.
public struct CommitRefused: Error, CustomStringConvertible, Sendable {
    public init() {}
    public var description: String { "the request was given up before its changes were committed; nothing was written" }
}
