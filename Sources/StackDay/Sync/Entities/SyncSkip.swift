/// A day skipped on purpose, as sync carries it.
public struct SyncSkip: SyncEntityValue {
    public var id = ""
    public var habit = ""
    public var day = LocalDay(uncheckedOrdinal: 0)
    public var recordedAt = 0.0

    public init(id: String, habit: String, day: LocalDay, recordedAt: Double) {
        self.id = id
        self.habit = habit
        self.day = day
        self.recordedAt = recordedAt
    }

    private init() {}

    public static let kind = SyncKind.skip
    public static let blank = SyncSkip()
    public var key: String { id }

    public static let fields: [SyncField<SyncSkip>] = [
        .text("id", .uuid, \.id), .text("habit", .uuid, \.habit), .day("day", \.day), .instant("recordedAt", \.recordedAt),
    ]
}
