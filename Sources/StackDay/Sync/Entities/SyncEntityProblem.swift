/// Why a change's values are not an entity: the field, by its wire name, and what is wrong with
/// its value.
public struct SyncEntityProblem: Error, Sendable, Equatable {
    public let field: String
    public let reason: String

    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }
}
