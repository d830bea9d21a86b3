import StackDay

/// `stats [NAME]`, `GET /v1/stats`: every habit's figures, or one habit's.
public struct StatsRequest: RequestType {
    public static let habit = RequestField<String>.text("habit", help: "Only this habit.").argument("name")
    public static let fields = [habit.declaration]

    public var habit: String?

    public init(habit: String? = nil) {
        self.habit = habit
    }

    public init(_ fields: RequestFields) throws {
        self.init(habit: try fields[Self.habit])
    }
}
