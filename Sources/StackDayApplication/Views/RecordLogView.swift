import StackDay

/// `log NAME`: `{"habit", "unit", "from", "to", "records": [{"id", "day", "amount", "recordedAt", "note"}…]}`,
/// in (day, recorded at) order.
public struct RecordLogView: JSONView {
    public let habit: Habit
    public let days: LocalDayRange
    public let records: [Completion]

    public var json: JSONValue {
        .object([
            "habit": .string(habit.name), "unit": .string(habit.unit), "from": .string(days.first.iso), "to": .string(days.last.iso),
            "records": .array(records.map { .object(CompletionView.fields($0)) }),
        ])
    }
}
