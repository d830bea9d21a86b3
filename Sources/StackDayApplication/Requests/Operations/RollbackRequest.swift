import StackDay

/// `policy rollback`, `POST /v1/habits/{name}/rollback`: takes back the latest rule change, as if it
/// had never been made (`{}`), or every revision after `to`; with `from`, from that day on only.
public struct RollbackRequest: RequestType {
    public static let to = RequestField<Int>.integer("to", in: 1...999_999_999, what: "a revision number",
                                                     help: "Bring back this revision over every day the later ones judged (default: take back the latest change).")
    public static let from = RequestField<LocalDay>.day("from", help: "Take back only from this day; the days before keep their results (default: the change's own first day).")
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

    /// What the use case takes back.
    public var target: RollBackRules.Target { revision.map(RollBackRules.Target.revision) ?? .latestChange }
}
