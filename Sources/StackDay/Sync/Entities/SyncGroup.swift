/// A group of habits as sync carries it: its name and when it was made (its members and rules
/// are its revisions').
public struct SyncGroup: SyncEntityValue {
    public var id = ""
    public var name = ""
    public var createdAt = 0.0

    public init(id: String, name: String, createdAt: Double) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
    }

    private init() {}

    public static let kind = SyncKind.group
    public static let blank = SyncGroup()
    public var key: String { id }

    public static let fields: [SyncField<SyncGroup>] = [
        .text("id", .uuid, \.id), .text("name", .text(limit: Habit.nameLimit, empty: false), \.name), .instant("createdAt", \.createdAt),
    ]
}
