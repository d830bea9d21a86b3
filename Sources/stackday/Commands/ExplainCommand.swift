import StackDay
import StackDayApplication

/// `stackday explain NAME`: the streak fold step by step.
enum ExplainCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "explain", abstract: "Why a streak is what it is: every step of the streak rule's fold, one line a day (a period, under a quota).",
            discussion: """
            The fold starts at the habit's start and ends today, as stats computes it; the lines shown are the days from --from to --to.
            A line says the outcome, the streak after it, and why; the step where the current streak began and the one that broke the streak before it are marked.
            With --json, each step carries the rule's state before and after it (docs/json.md).
            """,
            run: run
        ).taking([HabitCommand.name.declaration] + ExplainRequest.fields)
    }

    static func run(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().explain(invocation.required(HabitCommand.name), invocation.request())
        if environment.printedJSON(view) { return }
        view.lines(environment.language).forEach(environment.io.print)
        for line in view.trace ?? [] { environment.io.print("trace \(line)") }
    }
}
