/// A record (a check-in or an amount on a day) as sync carries it.
public struct SyncRecord: SyncEntityValue {
    public var id = ""
    public var habit = ""
    public var day = LocalDay(uncheckedOrdinal: 0)
    public var recordedAt = 0.0
    public var amountThousandths: Int64 = 1000
    public var note: String?

    public init(id: String, habit: String, day: LocalDay, recordedAt: Double, amountThousandths: Int64, note: String? = nil) {
        self.id = id
        self.habit = habit
        self.day = day
        self.recordedAt = recordedAt
        self.amountThousandths = amountThousandths
        self.note = note
    }

    private init() {}

    public static let kind = SyncKind.completion
    public static let blank = SyncRecord()
    public var key: String { id }

    public static let fields: [SyncField<SyncRecord>] = [
        .text("id", .uuid, \.id), .text("habit", .uuid, \.habit), .day("day", \.day), .instant("recordedAt", \.recordedAt),
        .integer("amountThousandths", .count, \.amountThousandths, absent: 1000),
        .optionalText("note", .optionalText(limit: Completion.noteLimit), \.note),
    ]
}
