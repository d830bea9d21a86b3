import StackDay

/// `skip`, `POST /v1/habits/{name}/skips`: `{"habit", "skipped": [day…]}`, the days newly excused.
public struct SkipsView: JSONView {
    public let habit: String
    public let days: LocalDayRange
    public let skips: [Skip]

    public var json: JSONValue { .object(["habit": .string(habit), "skipped": .array(skips.map { .string($0.day.iso) })]) }
}
