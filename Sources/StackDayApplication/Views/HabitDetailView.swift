import StackDay

/// `habit show`, `GET /v1/habits/{name}`: the habit (`HabitView`) with its figures under
/// `statistics`, or with its policy's `error`.
public struct HabitDetailView: JSONView {
    public let result: Result<HabitSummary, HabitFailure>

    public var habit: Habit {
        switch result {
        case .success(let summary): summary.habit
        case .failure(let failure): failure.habit
        }
    }

    public var failure: HabitFailure? { result.failure }

    public var json: JSONValue {
        guard case .object(var object) = HabitView(habit).json else { return .null }
        switch result {
        case .success(let summary):
            object["rules"] = ViewJSON.revision(summary.revision)
            object["statistics"] = .object(ViewJSON.figures(summary))
        case .failure(let failure): object["error"] = .string(failure.message)
        }
        return .object(object)
    }
}
