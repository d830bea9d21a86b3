import StackDay

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

    static func json(_ summary: HabitSummary) -> JSONValue {
        let stats = summary.statistics
        return .object([
            "name": .string(summary.habit.name),
            "current": JSONOutput.int(stats.streak.current),
            "longest": JSONOutput.int(stats.streak.longest),
            "completedDays": JSONOutput.int(stats.completedDays),
            "eligibleDays": JSONOutput.int(stats.eligibleDays),
            "rate": JSONOutput.number(stats.completionRate),
            "score": JSONOutput.number(stats.score),
            "archived": .bool(summary.habit.archivedOn != nil),
        ])
    }

    static func runStats(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let summaries = try SummarizeHabits(context: try environment.context())(habitName: invocation.argument("name"))
        if environment.json { return environment.printJSON(.object(["habits": .array(summaries.map(json))])) }
        if summaries.isEmpty { return environment.io.print("No habits yet.") }
        let rows = [["HABIT", "DONE", "DUE", "RATE", "STREAK", "LONGEST", "SCORE"]] + summaries.map {
            let stats = $0.statistics
            return [$0.habit.name, String(stats.completedDays), String(stats.eligibleDays), Format.percent(stats.completionRate),
                    String(stats.streak.current), String(stats.streak.longest), Format.percent(stats.score)]
        }
        Format.table(rows).forEach(environment.io.print)
    }

    static func runToday(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let summaries = try SummarizeHabits(context: try environment.context())(includeArchived: false)
            .filter { $0.today != nil }
        if environment.json {
            return environment.printJSON(.object([
                "day": .string(environment.today.iso),
                "habits": .array(summaries.map { summary in
                    let entry = summary.today
                    return .object([
                        "name": .string(summary.habit.name),
                        "due": .bool(entry?.isDue ?? false),
                        "total": JSONOutput.number(entry?.total ?? 0),
                        "goal": JSONOutput.number(summary.habit.goal),
                        "unit": .string(summary.habit.unit),
                        "progress": JSONOutput.number(entry?.progress ?? 0),
                        "state": .string(entry?.state.rawValue ?? "notDue"),
                        "streak": JSONOutput.int(summary.statistics.streak.current),
                    ])
                }),
            ]))
        }
        environment.io.print("Today, \(environment.today.iso)")
        if summaries.isEmpty { return environment.io.print("No active habits.") }
        let rows = summaries.map { summary -> [String] in
            let habit = summary.habit
            guard let entry = summary.today else { return [] }
            let amount = "\(Quantity.describe(entry.total))/\(Format.quantity(habit.goal, unit: habit.unit))"
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
    }
}
