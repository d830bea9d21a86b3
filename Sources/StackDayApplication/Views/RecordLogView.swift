import StackDay
import StackDayExchange

/// `log NAME`: `{"habit", "unit", "from", "to", "records": [{"id", "day", "amount", "recordedAt"}…]}`,
/// in (day, recorded at) order.
public struct RecordLogView: JSONView {
    public let habit: Habit
    public let days: LocalDayRange
    public let records: [Completion]

    public var json: JSONValue {
        .object([
            "habit": .string(habit.name), "unit": .string(habit.unit), "from": .string(days.first.iso), "to": .string(days.last.iso),
            "records": .array(records.map { record in
                .object([
                    "id": .string(record.id.uuidString), "day": .string(record.completedOn.iso), "amount": ViewJSON.number(record.amount),
                    "recordedAt": .string(InstantText.format(record.recordedAt)),
                ])
            }),
        ])
    }
}
