import Foundation

/// Where skipped days are kept. Lists come in day order.
public protocol SkipRepository: AnyObject {
    /// Throws `RepositoryError.duplicateID` when the id exists.
    func insert(_ skip: Skip) throws
    /// Throws `RepositoryError.notFound` when the id does not exist.
    func update(_ skip: Skip) throws
    /// Throws `RepositoryError.notFound` when the id does not exist.
    func delete(id: UUID) throws
    func skip(id: UUID) throws -> Skip?
    func skips(habitID: UUID) throws -> [Skip]
    /// The habit's skips whose day falls in `days` (both ends included).
    func skips(habitID: UUID, in days: LocalDayRange) throws -> [Skip]
    /// Removes every skip of a habit and returns how many there were.
    @discardableResult
    func deleteAll(habitID: UUID) throws -> Int
}
