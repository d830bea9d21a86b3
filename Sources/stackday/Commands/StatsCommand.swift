import StackDay
import StackDayApplication

/// `stackday stats` and `stackday today`.
enum StatsCommand {
    static var stats: CommandSpec {
        CommandSpec(
            name: "stats", abstract: "Completed and eligible days (or periods), rate, streaks and score.",
            run: runStats
        ).taking(StatsRequest.fields)
    }

    static let pending = RequestField<Bool>.flag("pending", help: "Only the habits still open today (due and not yet met).").commandLineOnly
    static let exitStatus = RequestField<Bool>.flag("exitStatus", help: "Exit 1 when a habit is still open today, 0 when none is.").commandLineOnly

    static var today: CommandSpec {
        CommandSpec(name: "today", abstract: "Each active habit today: due or not, progress and streak.",
                    discussion: """
                    For cron: 'stackday today --pending --exit-status' lists what is still open today and exits 1 while \
                    anything is, 0 when nothing is; e.g. at 21:00: 0 21 * * * stackday today --pending --exit-status >/dev/null || notify-send StackDay "Habits still open today"
                    """,
                    run: runToday).taking([pending.declaration, exitStatus.declaration])
    }

    static func runStats(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().stats(invocation.request())
        let words = environment.words
        if environment.printedJSON(view) {
        } else if view.rows.isEmpty {
            environment.io.print(words["No habits yet."])
        } else {
            let rows = [["HABIT", "DONE", "DUE", "RATE", "STREAK", "LONGEST", "SCORE"].map { words[$0] }] + view.rows.map { result -> [String] in
                switch result {
                case .success(let summary):
                    let stats = summary.statistics
                    let unit = summary.countsIn
                    let counted = unit == .days ? { String($0) } : { words.count($0, unit) }
                    return [summary.habit.name, counted(stats.completedDays), counted(stats.eligibleDays), Format.percent(stats.completionRate),
                            counted(stats.streak.current), counted(stats.streak.longest), Format.percent(stats.score)]
                case .failure(let failure):
                    return [failure.habit.name, "\(words["error"]): \(failure.message)"]
                }
            }
            Format.table(rows).forEach(environment.io.print)
            if !view.groups.isEmpty {
                environment.io.print("")
                let groupRows = [["GROUP", "DONE", "DUE", "RATE", "STREAK", "LONGEST", "SCORE"].map { words[$0] }] + view.groups.map { result -> [String] in
                    switch result {
                    case .success(let summary):
                        let stats = summary.statistics
                        return [summary.group.name, String(stats.completedDays), String(stats.eligibleDays), Format.percent(stats.completionRate),
                                String(stats.streak.current), String(stats.streak.longest), Format.percent(stats.score)]
                    case .failure(let failure):
                        return [failure.group.name, "\(words["error"]): \(failure.message)"]
                    }
                }
                Format.table(groupRows).forEach(environment.io.print)
            }
        }
        try HabitsFailed.check(view.failures)
        try GroupsFailed.check(view.groups)
    }

    static func runToday(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let all = try environment.application().todayView()
        let (onlyOpen, exits) = (try invocation[pending] ?? false, try invocation[exitStatus] ?? false)
        let view = onlyOpen ? all.open : all
        // Checked last, after the list is printed: a failure, then whether anything is open.
        func finish() throws {
            try HabitsFailed.check(view.failures)
            try GroupsFailed.check(view.groups)
            if exits, !all.open.rows.isEmpty { throw ExitStatus(code: 1) }
        }
        if environment.printedJSON(view) { return try finish() }
        let words = environment.words
        environment.io.print("\(words["Today,"]) \(view.day.iso)")
        if view.rows.isEmpty {
            environment.io.print(onlyOpen ? words["Nothing left to do today."] : words["No active habits."])
            return try finish()
        }
        let rows = view.rows.map { result -> [String] in
            let summary: HabitSummary
            switch result {
            case .success(let value): summary = value
            case .failure(let failure): return [failure.habit.name, "\(words["error"]): \(failure.message)"]
            }
            let habit = summary.habit
            guard let entry = summary.today else { return [] }
            let target = DayTarget(summary.revision)
            let amount = words.amount(entry.total, of: target, unit: habit.unit)
            let streak = "\(words["streak"]) \(words.count(summary.statistics.streak.current, summary.countsIn))"
            // Under a limit the bar fills toward the limit, as the web card's does.
            let filled = target.limit.map { $0 > 0 ? min(1, entry.total / $0) : (entry.total > 0 ? 1 : 0) } ?? entry.progress
            return [habit.name, Format.bar(filled), amount, words.state(entry, target: target),
                    PeriodText(summary)?.text(environment.language) ?? "", streak]
        }
        // The period column only when a quota habit is shown.
        let hasPeriods = rows.contains { $0.count == 6 && !$0[4].isEmpty }
        Format.table(hasPeriods ? rows : rows.map { $0.count == 6 ? Array($0[0..<4]) + [$0[5]] : $0 }).forEach(environment.io.print)
        printGroups(view.groups, environment: environment)
        try finish()
    }

    /// Today's groups under the habits: each group's bar, `2 of 3`, state and streak.
    static func printGroups(_ groups: [Result<GroupSummary, GroupFailure>], environment: CLIEnvironment) {
        guard !groups.isEmpty else { return }
        let words = environment.words
        environment.io.print("")
        environment.io.print(words["Groups"])
        let rows = groups.map { result -> [String] in
            switch result {
            case .success(let summary):
                let streak = "\(words["streak"]) \(words.count(summary.statistics.streak.current, .days))"
                return [summary.group.name, Format.bar(summary.today?.progress ?? 0), GroupCommand.line(summary, words: words), streak]
            case .failure(let failure):
                return [failure.group.name, "\(words["error"]): \(failure.message)"]
            }
        }
        Format.table(rows).forEach(environment.io.print)
    }
}
