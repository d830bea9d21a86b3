import Foundation
import StackDay
import StackDayApplication
import StackDayServer

/// `stackday report week` and `stackday report html`.
enum ReportCommand {
    static let out = RequestField<String>.text("out", help: "Write the page to a file instead of stdout.", valueName: "file").commandLineOnly

    static var spec: CommandSpec {
        CommandSpec(name: "report", abstract: "Print reports.", subcommands: [
            CommandSpec(
                name: "week", abstract: "The weekly report, Monday to Sunday or from Sunday (--week-starts); --lang ko for the Korean layout.",
                run: week
            ).taking(WeekReportRequest.fields),
            CommandSpec(
                name: "html", abstract: "One self-contained HTML page: the week's report and a year heatmap per habit.",
                run: html
            ).taking([out.declaration] + WeekReportRequest.fields),
        ])
    }

    static func week(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().weekReport(invocation.request(), language: environment.language)
        // Lined up for a reader on a terminal; piped, seed 000's exact layout, which scripts compare.
        if !environment.printedJSON(view) { environment.io.print(environment.io.isTerminal ? view.alignedText : view.text) }
        try HabitsFailed.check(view.failures)
    }

    static func html(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let context = try environment.context()
        let view = try Application(context: context).dashboard(invocation.request(), language: environment.language)
        let title = environment.words["StackDay report"]
        // The dashboard's page, self-contained, without a signed-in user.
        let page = DashboardPage(title: title, user: nil, view: view, language: environment.language).render()
        if let path = try invocation[out] {
            try OutputFile.write(page, to: path)
            if environment.json { return environment.printJSON(.object(["out": .string(path)])) }
            environment.io.print("Wrote \(path).")
        } else {
            environment.io.print(page)
        }
        try HabitsFailed.check(view.week.failures)
    }
}
