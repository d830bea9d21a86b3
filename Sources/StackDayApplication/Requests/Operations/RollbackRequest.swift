import StackDay

/// `policy rollback`, `POST /v1/habits/{name}/rollback`: the rules of revision `to` (default the
/// one before the latest) again from `from` (default today).
public struct RollbackRequest: RequestType {
    public static let to = RequestField<Int>.integer("to", in: 1...999_999_999, what: "a revision number",
                                                     help: "The revision whose rules return (default: the one before the latest).")
    public static let from = RequestField<LocalDay>.day("from", help: "The first day they judge again (default: today).")
    public static let fields = [to.declaration, from.declaration]

    public var revision: Int?
    public var from: LocalDay?

    public init(revision: Int? = nil, from: LocalDay? = nil) {
        self.revision = revision
        self.from = from
    }

    public init(_ fields: RequestFields) throws {
        self.init(revision: try fields[Self.to], from: try fields[Self.from])
    }
}
