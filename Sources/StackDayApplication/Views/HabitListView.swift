import StackDay

/// `habit list`, `GET /v1/habits`: `{"habits": [habit…]}` in creation order.
public struct HabitListView: JSONView {
    public let habits: [Habit]

    public var json: JSONValue { .object(["habits": .array(habits.map { HabitView($0).json })]) }
}
