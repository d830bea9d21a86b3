import StackDay

/// `habit list`, `GET /v1/habits`: every habit, only the active ones, or only the archived ones;
/// over HTTP a page at a time (`limit` after `cursor`).
public struct ListHabitsRequest: RequestType {
    public static let active = RequestField<Bool>.flag("active", help: "Leave archived habits out.")
    public static let archived = RequestField<Bool>.flag("archived", help: "Only the archived habits ('habit unarchive NAME' brings one back).")
    public static let limit = RequestField<Int>.integer("limit", in: 1...1000, what: "a page size from 1 to 1000",
                                                        help: "Habits a page (default 100, at most 1000).").httpOnly
    public static let cursor = RequestField<String>.text("cursor", help: "Where the page starts: the previous page's next.").httpOnly
    public static let fields = [active.declaration, archived.declaration, limit.declaration, cursor.declaration]

    /// Which habits are listed.
    public enum Selection: String, Sendable {
        case all, active, archived
    }

    public var selection: Selection
    public var limit: Int
    public var cursor: String?
    public var naming: FieldNaming

    public init(_ selection: Selection = .all, limit: Int = 100, cursor: String? = nil, naming: FieldNaming = FieldNaming(http: true)) {
        self.selection = selection
        self.limit = limit
        self.cursor = cursor
        self.naming = naming
    }

    public init(_ fields: RequestFields) throws {
        let (active, archived) = (try fields[Self.active] ?? false, try fields[Self.archived] ?? false)
        if active && archived { throw RequestError("\(fields.label(Self.active)) and \(fields.label(Self.archived)) cannot be used together") }
        self.init(active ? .active : archived ? .archived : .all, limit: try fields[Self.limit] ?? 100, cursor: try fields[Self.cursor], naming: fields.naming)
    }
}
