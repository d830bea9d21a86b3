import StackDay

/// `POST /v1/push/later`: "Later" on a reminder: the habit to remind of again in an hour.
public struct PushLaterRequest: RequestType {
    public static let habit = RequestField<String>.text("habit", help: "The habit's name, as the reminder named it.").required
    public static let fields = [habit.declaration]

    public var habit: String

    public init(_ fields: RequestFields) throws {
        habit = try fields.required(Self.habit)
    }
}
