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

    /// Written out rather than by key path: a first sync reads and writes records by the hundred
    /// thousand, and a closure over a key path applies it at run time.
    public static let fields: [SyncField<SyncRecord>] = [
        SyncField("id", .uuid, read: { .string($0.id) }, write: { $0.id = $1?.stringValue ?? "" }),
        SyncField("habit", .uuid, read: { .string($0.habit) }, write: { $0.habit = $1?.stringValue ?? "" }),
        SyncField("day", .day, read: { .string($0.day.iso) }, write: { record, json in
            if let day = json?.stringValue.flatMap(LocalDay.init) { record.day = day }
        }),
        SyncField("recordedAt", .instant, read: { .number($0.recordedAt) }, write: { $0.recordedAt = $1?.numberValue ?? 0 }),
        SyncField("amountThousandths", .count, read: { .number(Double($0.amountThousandths)) },
                  write: { $0.amountThousandths = $1?.numberValue.map { Int64($0) } ?? 1000 }),
        SyncField("note", .optionalText(limit: Completion.noteLimit), read: { $0.note.map(JSONValue.string) ?? .null }, write: { $0.note = $1?.stringValue }),
    ]
}
