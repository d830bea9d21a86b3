extension Completion {
    /// What a `record` or `undo` delivery says of this record.
    func webhookData(habit: Habit) -> JSONValue {
        var data: [String: JSONValue] = [
            "habit": .string(habit.name), "record": .string(id.uuidString.lowercased()), "day": .string(completedOn.iso),
            "amount": .number(amount), "unit": .string(habit.unit),
        ]
        if let note { data["note"] = .string(note) }
        return .object(data)
    }
}
