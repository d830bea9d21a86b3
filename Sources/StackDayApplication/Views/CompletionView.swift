import StackDay

/// A record made or removed (`record`, `undo`; `POST /v1/habits/{name}/records`, `DELETE
/// …/records/latest`): `{"id", "habit", "day", "amount"}`.
public struct CompletionView: JSONView {
    public let completion: Completion
    /// The habit's name as the request gave it.
    public let habit: String

    public init(completion: Completion, habit: String) {
        self.completion = completion
        self.habit = habit
    }

    public var json: JSONValue {
        .object([
            "id": .string(completion.id.uuidString), "habit": .string(habit), "day": .string(completion.completedOn.iso),
            "amount": ViewJSON.number(completion.amount),
        ])
    }
}
