import StackDay

/// `group rollback`, `POST /v1/groups/{name}/rollback`: takes back the group's latest change of
/// members or rules; with `from`, from that day on only.
public struct RollBackGroupRequest: RequestType {
    public static let from = RequestField<LocalDay>.day("from", help: "The first day the earlier rules judge again (default: the day the change took effect).")
    public static let fields = [from.declaration]

    public var from: LocalDay?

    public init(from: LocalDay? = nil) {
        self.from = from
    }

    public init(_ fields: RequestFields) throws {
        self.init(from: try fields[Self.from])
    }
}
