import StackDay

/// `habit list`, `GET /v1/habits`: `{"habits": [habit…], "next"}` in creation order; `next` is the
/// path of the API's next page, null on the last (the command line prints every habit at once).
public struct HabitListView: JSONView {
    public let habits: [Habit]
    public var next: String? = nil

    public init(habits: [Habit], next: String? = nil) {
        self.habits = habits
        self.next = next
    }

    public var json: JSONValue { .object(["habits": .array(habits.map { HabitView($0).json }), "next": next.map(JSONValue.string) ?? .null]) }
}
