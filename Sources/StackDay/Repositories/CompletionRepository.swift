import Foundation

/// Where completions are kept. Lists come in day order, then by `recordedAt`.
public protocol CompletionRepository: AnyObject {
    /// Throws `RepositoryError.duplicateID` when the id exists.
    func insert(_ completion: Completion) throws
    /// Throws `RepositoryError.notFound` when the id does not exist.
    func update(_ completion: Completion) throws
    /// Throws `RepositoryError.notFound` when the id does not exist.
    func delete(id: UUID) throws
    func completion(id: UUID) throws -> Completion?
    func completions(habitID: UUID) throws -> [Completion]
    /// The habit's completions whose day falls in `days` (both ends included).
    func completions(habitID: UUID, in days: LocalDayRange) throws -> [Completion]
    /// Removes every completion of a habit and returns how many there were.
    @discardableResult
    func deleteAll(habitID: UUID) throws -> Int
}
