import StackDay
import StackDayExchange

/// A record made, removed or listed (`record`, `undo`; `POST /v1/habits/{name}/records`, `DELETE
/// …/records/latest`, `GET …/records`): `{"id", "habit", "day", "amount", "recordedAt", "note"}`,
/// `note` null when none was written.
public struct CompletionView: JSONView {
    public let completion: Completion
    /// The habit's name as the request gave it.
    public let habit: String

    public init(completion: Completion, habit: String) {
        self.completion = completion
        self.habit = habit
    }

    public var json: JSONValue {
        var fields = Self.fields(completion)
        fields["habit"] = .string(habit)
        return .object(fields)
    }

    /// A record's own fields, without its habit (`log` lists them under one).
    static func fields(_ completion: Completion) -> [String: JSONValue] {
        [
            "id": .string(completion.id.uuidString), "day": .string(completion.completedOn.iso), "amount": ViewJSON.number(completion.amount),
            "recordedAt": .string(InstantText.format(completion.recordedAt)), "note": completion.note.map(JSONValue.string) ?? .null,
        ]
    }
}
