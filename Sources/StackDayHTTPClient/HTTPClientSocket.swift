import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The socket of one exchange, for another thread to shut down (a cancelled task).
public final class HTTPClientSocket: @unchecked Sendable {
    // Safe: `descriptor` and `cancelled` are read and written under `lock`.
    private let lock = NSLock()
    private var descriptor: Int32 = -1
    private var cancelled = false

    public init() {}

    func set(_ fd: Int32) {
        lock.lock()
        defer { lock.unlock() }
        descriptor = fd
        if cancelled { Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
    }

    /// Ends the exchange: a call blocked on the socket returns.
    public func shutDown() {
        lock.lock()
        defer { lock.unlock() }
        cancelled = true
        if descriptor >= 0 { Glibc.shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    /// Whether `shutDown` ended the exchange.
    public var wasShutDown: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    func close() {
        lock.lock()
        defer { lock.unlock() }
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }
}
