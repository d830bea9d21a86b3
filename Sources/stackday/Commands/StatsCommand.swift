import StackDay
import StackDayExchange

/// `stackday stats` and `stackday today`.
enum StatsCommand {
    static var stats: CommandSpec {
        CommandSpec(
            name: "stats", abstract: "Completed and eligible days, rate, streaks and score.",
            arguments: [ArgumentSpec(name: "name", help: "Only this habit.", isOptional: true)], run: runStats
        )
    }

    static var today: CommandSpec {
        CommandSpec(name: "today", abstract: "Each active habit today: due or not, progress and streak.", run: runToday)
    }

    static func runStats(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let results = try SummarizeHabits(context: try environment.context())(habitName: invocation.argument("name"))
        if environment.json {
            environment.printJSON(JSONOutput.stats(results))
        } else if results.isEmpty {
            environment.io.print("No habits yet.")
        } else {
            let rows = [["HABIT", "DONE", "DUE", "RATE", "STREAK", "LONGEST", "SCORE"]] + results.map { result -> [String] in
                switch result {
                case .success(let summary):
                    let stats = summary.statistics
                    return [summary.habit.name, String(stats.completedDays), String(stats.eligibleDays), Format.percent(stats.completionRate),
                            String(stats.streak.current), String(stats.streak.longest), Format.percent(stats.score)]
                case .failure(let failure):
                    return [failure.habit.name, "error: \(failure.message)"]
                }
            }
            Format.table(rows).forEach(environment.io.print)
        }
        try HabitsFailed.check(results.failures())
    }

    static func runToday(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let results = JSONOutput.todayResults(try SummarizeHabits(context: try environment.context())(includeArchived: false))
        if environment.json {
            environment.printJSON(JSONOutput.today(environment.today, results))
            return try HabitsFailed.check(results.failures())
        }
        environment.io.print("Today, \(environment.today.iso)")
        if results.isEmpty { return environment.io.print("No active habits.") }
        let rows = results.map { result -> [String] in
            let summary: HabitSummary
            switch result {
            case .success(let value): summary = value
            case .failure(let failure): return [failure.habit.name, "error: \(failure.message)"]
            }
            let habit = summary.habit
            guard let entry = summary.today else { return [] }
            let amount = "\(Quantity.describe(entry.total))/\(Format.quantity(summary.revision.goal, unit: habit.unit))"
            let state: String
            switch entry.state {
            case .completed: state = "done"
            case .pending: state = "pending"
            case .skipped: state = "skipped"
            case .notDue: state = "not due"
            case .missed, .upcoming: state = entry.state.rawValue
            }
            return [habit.name, Format.bar(entry.progress), amount, state, "streak \(summary.statistics.streak.current)"]
        }
        Format.table(rows).forEach(environment.io.print)
        try HabitsFailed.check(results.failures())
    }
}
