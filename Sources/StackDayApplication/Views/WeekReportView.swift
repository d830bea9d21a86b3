import StackDay

/// `report week`, `GET /v1/report/week`: the week as text (seed 000's layout in Korean) and as
/// `{"monday", "sunday", "habits": [{…habit fields, "countsIn", "unit", "marks", "total",
/// "metDays", "dueDays", "current", "longest"}…], "mostConsistent"}`.
public struct WeekReportView: JSONView {
    public let report: WeeklyReport
    public let language: ReportLanguage

    public var failures: [HabitFailure] { report.failures }

    public var text: String { WeeklyReportFormatter(language: language).format(report) }
    /// The same with its columns lined up by display width (`report week` on a terminal).
    public var alignedText: String { WeeklyReportFormatter(language: language).format(report, aligned: true) }

    public var json: JSONValue {
        .object([
            "monday": .string(report.monday.iso),
            "sunday": .string(report.sunday.iso),
            "habits": .array(report.rows.map { row in
                let line: WeeklyReportLine
                switch row {
                case .success(let value): line = value
                case .failure(let failure): return ViewJSON.summaryRow(.failure(failure))
                }
                var object = ViewJSON.habitFields(line.habit, rules: line.habit.revision(on: min(report.sunday, line.habit.archivedOn ?? report.sunday)))
                object["countsIn"] = .string(line.countsIn.rawValue)
                object["unit"] = .string(line.unit)
                object["marks"] = .array(line.marks.map { mark in
                    switch mark {
                    case .met: .string("met")
                    case .unmet: .string("unmet")
                    case .rest: .string("rest")
                    }
                })
                object["total"] = ViewJSON.number(line.total)
                object["metDays"] = ViewJSON.int(line.metDays)
                object["dueDays"] = ViewJSON.int(line.dueDays)
                object["current"] = ViewJSON.int(line.streak.current)
                object["longest"] = ViewJSON.int(line.streak.longest)
                return .object(object)
            }),
            "mostConsistent": ViewJSON.string(report.mostConsistent?.habitName),
        ])
    }
}
