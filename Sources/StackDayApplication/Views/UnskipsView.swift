import StackDay

/// `unskip`, `DELETE /v1/habits/{name}/skips`: `{"habit", "unskipped": [day…]}`, the days that
/// count again.
public struct UnskipsView: JSONView {
    public let habit: String
    public let days: LocalDayRange
    public let skips: [Skip]

    public var json: JSONValue { .object(["habit": .string(habit), "unskipped": .array(skips.map { .string($0.day.iso) })]) }
}
