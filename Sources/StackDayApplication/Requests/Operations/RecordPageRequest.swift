import StackDay

/// `GET /v1/habits/{name}/records`: `limit` records (default 100, at most 1000) after `cursor`
/// over `from` … `to` (default: the habit's start … today).
public struct RecordPageRequest: RequestType {
    public static let limit = RequestField<Int>.integer("limit", in: 1...1000, what: "a page size from 1 to 1000",
                                                        help: "Records a page (default 100, at most 1000).").httpOnly
    public static let cursor = RequestField<String>.text("cursor", help: "Where the page starts: the previous page's next.").httpOnly
    public static let fields = RecordLogRequest.fields + [limit.declaration, cursor.declaration]

    public var days: RecordLogRequest
    public var limit: Int
    public var cursor: String?

    public init(days: RecordLogRequest = RecordLogRequest(), limit: Int = 100, cursor: String? = nil) {
        self.days = days
        self.limit = limit
        self.cursor = cursor
    }

    public init(_ fields: RequestFields) throws {
        self.init(days: try RecordLogRequest(fields), limit: try fields[Self.limit] ?? 100, cursor: try fields[Self.cursor])
    }
}
