import Foundation

/// A repository contract violation: inserting an existing id, or changing a missing one.
public enum RepositoryError: Error, Equatable, Sendable, CustomStringConvertible {
    case duplicateID(entity: String, id: UUID)
    case notFound(entity: String, id: UUID)
    /// An update that rewrites or drops a stored rule revision (revisions are append-only).
    case revisionRewritten(habitID: UUID, number: Int)

    public var description: String {
        switch self {
        case .duplicateID(let entity, let id): return "a \(entity) with id \(id.uuidString) already exists"
        case .notFound(let entity, let id): return "no \(entity) has id \(id.uuidString)"
        case .revisionRewritten(let habitID, let number):
            return "rule revision \(number) of habit \(habitID.uuidString) is stored and cannot change; append a new revision instead"
        }
    }
}
