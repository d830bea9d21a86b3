import StackDay

/// `group calendar NAME`, `GET /v1/groups/{name}/calendar`: a group's days over a range as its
/// rule judged them, `{"group", "days": [{"day", "state", "progress"}…]}`, or `{"group", "error"}`
/// when its rule or a member failed.
public struct GroupCalendarView: JSONView {
    public let result: Result<GroupSummary, GroupFailure>
    /// The days asked, through today at most.
    public let range: LocalDayRange

    public init(_ result: Result<GroupSummary, GroupFailure>, range: LocalDayRange) {
        self.result = result
        self.range = range
    }

    /// The group's day, by day, within the range.
    public func entry(on day: LocalDay) -> HabitEntry? {
        guard range.contains(day), case .success(let summary) = result, let first = summary.days.first?.day, day >= first else { return nil }
        let index = first.days(to: day)
        return index < summary.days.count ? summary.days[index] : nil
    }

    public var json: JSONValue {
        switch result {
        case .failure(let failure):
            return .object(["group": .string(failure.group.name), "error": .string(failure.message)])
        case .success(let summary):
            return .object([
                "group": .string(summary.group.name),
                "days": .array(range.compactMap { day in
                    entry(on: day).map { .object(["day": .string(day.iso), "state": .string($0.state.rawValue), "progress": ViewJSON.number($0.progress)]) }
                }),
            ])
        }
    }
}
