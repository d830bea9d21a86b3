/// A habit's own fields as sync carries them (its rules are its revisions').
public struct SyncHabit: SyncEntityValue {
    public var id = ""
    public var name = ""
    public var startedOn = LocalDay(uncheckedOrdinal: 0)
    public var archivedOn: LocalDay?
    public var createdAt = 0.0
    public var updatedAt = 0.0
    public var unit = ""
    /// Its place in the list (`Habit.position`); 0 for none yet.
    public var position: Int64 = 0
    public var colorTag: String?
    /// The step + adds, in thousandths; nil for the goal's.
    public var stepThousandths: Int64?
    public var question: String?
    public var description: String?

    public init(id: String, name: String, startedOn: LocalDay, archivedOn: LocalDay? = nil, createdAt: Double, updatedAt: Double, unit: String,
                position: Int64 = 0, colorTag: String? = nil, stepThousandths: Int64? = nil, question: String? = nil, description: String? = nil) {
        self.id = id
        self.name = name
        self.startedOn = startedOn
        self.archivedOn = archivedOn
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.unit = unit
        self.position = position
        self.colorTag = colorTag
        self.stepThousandths = stepThousandths
        self.question = question
        self.description = description
    }

    private init() {}

    public static let kind = SyncKind.habit
    public static let blank = SyncHabit()
    public var key: String { id }

    public static let fields: [SyncField<SyncHabit>] = [
        .text("id", .uuid, \.id), .text(SyncHabitField.name.rawValue, .text(limit: Habit.nameLimit, empty: false), \.name),
        .day(SyncHabitField.startedOn.rawValue, \.startedOn), .optionalDay(SyncHabitField.archivedOn.rawValue, \.archivedOn),
        .instant("createdAt", \.createdAt), .instant(SyncHabitField.updatedAt.rawValue, \.updatedAt),
        .text(SyncHabitField.unit.rawValue, .text(limit: Habit.unitLimit, empty: true), \.unit),
        .integer(SyncHabitField.position.rawValue, .position, \.position),
        .optionalText(SyncHabitField.colorTag.rawValue, .colorTag, \.colorTag),
        .optionalInteger(SyncHabitField.stepThousandths.rawValue, .optionalCount, \.stepThousandths),
        .optionalText(SyncHabitField.question.rawValue, .optionalText(limit: Habit.textLimit), \.question),
        .optionalText(SyncHabitField.description.rawValue, .optionalText(limit: Habit.textLimit), \.description),
    ]

    /// Each merged field's declaration, by the field.
    private static let merged: [SyncHabitField: SyncField<SyncHabit>] = Dictionary(uniqueKeysWithValues: SyncHabitField.allCases.map { field in
        (field, fields.first { $0.name == field.rawValue }!)
    })

    /// A merged field's value, as the wire carries it.
    public func value(of field: SyncHabitField) -> JSONValue { Self.merged[field]!.read(self) }

    /// Takes `field`'s value from `other`.
    public mutating func take(_ field: SyncHabitField, from other: SyncHabit) {
        let declaration = Self.merged[field]!
        declaration.write(&self, declaration.read(other))
    }
}
