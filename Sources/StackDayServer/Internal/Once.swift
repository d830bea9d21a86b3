import Foundation

/// A value made once, on first use, by whichever thread asks first.
///
/// `@unchecked Sendable`: `made` is read and written holding `lock`; `T` is `Sendable`.
final class Once<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var made: T?

    func value(_ make: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        if let made { return made }
        let value = try make()
        made = value
        return value
    }
}
