import StackDay

/// `habit add`, `POST /v1/habits`: a name, the habit's rules (`HabitRules`) and how it looks (`HabitDisplay`).
public struct CreateHabitRequest: RequestType {
    public static let name = RequestField<String>.text("name", help: "The habit's name (case-insensitive; with --from-ics, default: the event's SUMMARY).")
        .argument("name").required

    public static let fields = [name.declaration] + HabitRules.fields + HabitDisplay.fields

    /// Nil only when the schedule is a pasted event whose SUMMARY names the habit.
    public var name: String?
    public var rules: HabitRules
    public var display: HabitDisplay
    public var naming: FieldNaming

    public init(name: String?, rules: HabitRules, display: HabitDisplay = HabitDisplay(), naming: FieldNaming = FieldNaming(http: true)) {
        self.name = name
        self.rules = rules
        self.display = display
        self.naming = naming
    }

    public init(_ fields: RequestFields) throws {
        self.init(name: try fields[Self.name], rules: try HabitRules(fields), display: try HabitDisplay(fields), naming: fields.naming)
    }
}
