import Foundation
import StackDay
import StackDayExchange

/// `stackday report week` and `stackday report html`.
enum ReportCommand {
    static var spec: CommandSpec {
        CommandSpec(name: "report", abstract: "Print reports.", subcommands: [
            CommandSpec(
                name: "week", abstract: "The weekly report, Monday to Sunday (--lang ko for the Korean layout).",
                options: [OptionSpec(name: "week-of", valueName: "day", help: "Any day of the week to report (default: today).")],
                run: week
            ),
            CommandSpec(
                name: "html", abstract: "One self-contained HTML page: the week's report and a year heatmap per habit.",
                options: [
                    OptionSpec(name: "out", valueName: "file", help: "Write the page to a file instead of stdout."),
                    OptionSpec(name: "week-of", valueName: "day", help: "Any day of the week to report (default: today)."),
                ],
                run: html
            ),
        ])
    }

    static func reportJSON(_ report: WeeklyReport) -> JSONValue {
        .object([
            "monday": .string(report.monday.iso),
            "sunday": .string(report.sunday.iso),
            "habits": .array(report.rows.map { row in
                guard case .success(let line) = row else { return row.failure.map(JSONOutput.failure) ?? .null }
                return .object([
                    "name": .string(line.habitName),
                    "unit": .string(line.unit),
                    "marks": .array(line.marks.map { mark in
                        switch mark {
                        case .met: .string("met")
                        case .unmet: .string("unmet")
                        case .rest: .string("rest")
                        }
                    }),
                    "total": JSONOutput.number(line.total),
                    "metDays": JSONOutput.int(line.metDays),
                    "dueDays": JSONOutput.int(line.dueDays),
                    "current": JSONOutput.int(line.streak.current),
                    "longest": JSONOutput.int(line.streak.longest),
                ])
            }),
            "mostConsistent": JSONOutput.string(report.mostConsistent?.habitName),
        ])
    }

    static func week(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let report = try BuildWeeklyReport(context: try environment.context())(weekOf: try invocation.day("week-of"))
        if environment.json {
            environment.printJSON(reportJSON(report))
        } else {
            environment.io.print(WeeklyReportFormatter(language: environment.language).format(report))
        }
        try HabitsFailed.check(report.failures)
    }

    static func html(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let context = try environment.context()
        let report = try BuildWeeklyReport(context: context)(weekOf: try invocation.day("week-of"))
        let page = try HTMLReport(
            title: environment.language == .korean ? "StackDay 보고서" : "StackDay report", context: context,
            weekText: WeeklyReportFormatter(language: environment.language).format(report)
        ).render()
        if let path = invocation.option("out") {
            try OutputFile.write(page, to: path)
            if environment.json { return environment.printJSON(.object(["out": .string(path)])) }
            environment.io.print("Wrote \(path).")
        } else {
            environment.io.print(page)
        }
        try HabitsFailed.check(report.failures)
    }
}
