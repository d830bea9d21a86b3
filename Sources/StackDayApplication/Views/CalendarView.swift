import StackDay

/// `calendar NAME…`, `GET /v1/calendar/{name}`: each habit's days over the range asked for,
/// `{"habit", "days": [{"day", "progress", "state", "total"}…]}` (or `{"habit", "error"}`);
/// several habits as `{"calendars": […]}`. Under a week or month quota each day also carries
/// `"period"`: the state of the period holding it (`completed`, `missed`, `pending`, …).
public struct CalendarView: JSONView {
    /// One habit's calendar: its timeline and the days shown, or its failure.
    public enum Sheet: Sendable {
        case days(HabitTimeline, LocalDayRange)
        case failed(HabitFailure)
    }

    public let sheets: [Sheet]

    public var failures: [HabitFailure] {
        sheets.compactMap { if case .failed(let failure) = $0 { failure } else { nil } }
    }

    public var json: JSONValue {
        let objects = sheets.map(Self.json)
        return objects.count == 1 ? objects[0] : .object(["calendars": .array(objects)])
    }

    static func json(_ sheet: Sheet) -> JSONValue {
        switch sheet {
        case .failed(let failure):
            return .object(["habit": .string(failure.habit.name), "error": .string(failure.message)])
        case .days(let timeline, let range):
            return .object([
                "habit": .string(timeline.habit.name),
                "days": .array(range.compactMap { day in
                    timeline.entry(on: day).map { entry in
                        let target = DayTarget(timeline.habit.revision(on: day))
                        var fields: [String: JSONValue] = ["day": .string(day.iso), "progress": ViewJSON.number(entry.progress),
                                                           "state": .string(ViewJSON.state(entry, target: target)), "total": ViewJSON.number(entry.total)]
                        if let period = timeline.period(on: day) { fields["period"] = .string(period.state.rawValue) }
                        return .object(fields)
                    }
                }),
            ])
        }
    }
}
