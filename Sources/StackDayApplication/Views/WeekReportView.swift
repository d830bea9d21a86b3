import StackDay

/// `report week`, `GET /v1/report/week`: the week as text (seed 000's layout in Korean) and as
/// `{"first", "last", "habits": [{…habit fields, "countsIn", "unit", "marks", "total",
/// "metDays", "dueDays", "current", "longest"}…], "mostConsistent", "groups": [{"name", "marks",
/// "metDays", "dueDays", "current", "longest"} or {"name", "error"}…]}`.
public struct WeekReportView: JSONView {
    public let report: WeeklyReport
    public let language: ReportLanguage

    public var failures: [HabitFailure] { report.failures }

    public var text: String { WeeklyReportFormatter(language: language).format(report) }
    /// The same with its columns lined up by display width (`report week` on a terminal).
    public var alignedText: String { WeeklyReportFormatter(language: language).format(report, aligned: true) }

    public var json: JSONValue {
        .object([
            "first": .string(report.firstDay.iso), "last": .string(report.lastDay.iso),
            // Named when every week began on a Monday; the week's first and last day, as `first` and `last`.
            "monday": .string(report.firstDay.iso), "sunday": .string(report.lastDay.iso),
            "habits": .array(report.rows.map { row in
                let line: WeeklyReportLine
                switch row {
                case .success(let value): line = value
                case .failure(let failure): return ViewJSON.summaryRow(.failure(failure))
                }
                var object = ViewJSON.habitFields(line.habit, rules: line.habit.revision(on: min(report.lastDay, line.habit.archivedOn ?? report.lastDay)))
                object["countsIn"] = .string(line.countsIn.rawValue)
                object["unit"] = .string(line.unit)
                object["marks"] = .array(line.marks.map { .string(Self.mark($0)) })
                object["total"] = ViewJSON.number(line.total)
                object["metDays"] = ViewJSON.int(line.metDays)
                object["dueDays"] = ViewJSON.int(line.dueDays)
                object["current"] = ViewJSON.int(line.streak.current)
                object["longest"] = ViewJSON.int(line.streak.longest)
                return .object(object)
            }),
            "mostConsistent": ViewJSON.string(report.mostConsistent?.habitName),
            "groups": .array(report.groups.map { group in
                switch group {
                case .failure(let failure): .object(["name": .string(failure.name), "error": .string(failure.message)])
                case .success(let line):
                    .object([
                        "name": .string(line.name), "marks": .array(line.marks.map { .string(Self.mark($0)) }),
                        "metDays": ViewJSON.int(line.metDays), "dueDays": ViewJSON.int(line.dueDays),
                        "current": ViewJSON.int(line.streak.current), "longest": ViewJSON.int(line.streak.longest),
                    ])
                }
            }),
        ])
    }

    /// A day's mark as JSON names it.
    static func mark(_ mark: WeekMark) -> String {
        switch mark {
        case .met: "met"
        case .unmet: "unmet"
        case .rest: "rest"
        }
    }
}
