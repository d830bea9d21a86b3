import StackDay

/// `policy history`, `GET /v1/habits/{name}/revisions`: `{"habit", "revisions": […]}`.
public struct RevisionsView: JSONView {
    public let habit: Habit

    public var json: JSONValue { .object(["habit": .string(habit.name), "revisions": .array(habit.revisions.map(ViewJSON.revision))]) }
}
