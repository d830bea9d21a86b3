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
            "rules": JSONOutput.revision(summary.revision),
        ])
    }

    /// A failed habit in a `--json` list: its name and the policy's error instead of its figures.
    static func json(_ failure: HabitFailure) -> JSONValue {
        .object(["name": .string(failure.habit.name), "error": .string(failure.message)])
    }

    static func json(_ result: Result<HabitSummary, HabitFailure>) -> JSONValue {
        switch result {
        case .success(let summary): json(summary)
        case .failure(let failure): json(failure)
        }
    }

    static func runStats(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let results = try SummarizeHabits(context: try environment.context())(habitName: invocation.argument("name"))
        if environment.json {
            environment.printJSON(.object(["habits": .array(results.map(json))]))
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
        let results = try SummarizeHabits(context: try environment.context())(includeArchived: false)
            .filter { (try? $0.get().today) != nil || $0.failure != nil }
        if environment.json {
            environment.printJSON(.object([
                "day": .string(environment.today.iso),
                "habits": .array(results.map { result in
                    guard case .success(let summary) = result else { return json(result) }
                    let entry = summary.today
                    return .object([
                        "name": .string(summary.habit.name),
                        "due": .bool(entry?.isDue ?? false),
                        "total": JSONOutput.number(entry?.total ?? 0),
                        "goal": JSONOutput.number(summary.revision.goal),
                        "unit": .string(summary.habit.unit),
                        "progress": JSONOutput.number(entry?.progress ?? 0),
                        "state": .string(entry?.state.rawValue ?? "notDue"),
                        "streak": JSONOutput.int(summary.statistics.streak.current),
                        "rules": JSONOutput.revision(summary.revision),
                    ])
                }),
            ]))
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
