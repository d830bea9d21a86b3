import StackDay

/// `stackday calendar NAME`: a GitHub-style heatmap in the terminal.
enum CalendarCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "calendar", abstract: "A heatmap of a habit: weeks as columns, Monday on top, shaded by progress.",
            discussion: "Colours are used only on a terminal; piped output uses the characters · ░ ▒ ▓ █.",
            arguments: [HabitCommand.name],
            options: [
                OptionSpec(name: "from", valueName: "day", help: "The first day (default: 26 weeks ago, or the start day)."),
                OptionSpec(name: "to", valueName: "day", help: "The last day (default: today)."),
            ],
            run: run
        )
    }

    static let plain = ["·", "░", "▒", "▓", "█"]
    static let colours = [238, 22, 28, 34, 40]

    static func run(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let name = invocation.required("name")
        let to = try invocation.day("to") ?? environment.today
        let timeline = try LoadTimeline(context: try environment.context())(habitName: name, through: to)
        let from = try invocation.day("from") ?? max(timeline.habit.startedOn, to.adding(days: -7 * 26 + 1))
        guard from <= to else { throw invocation.usage("--from \(from) is after --to \(to)") }
        let range = LocalDayRange(from, to)
        if environment.json {
            return environment.printJSON(.object([
                "habit": .string(timeline.habit.name),
                "days": .array(range.compactMap { day in
                    timeline.entry(on: day).map { entry in
                        .object(["day": .string(day.iso), "progress": JSONOutput.number(entry.progress), "state": .string(entry.state.rawValue),
                                 "total": JSONOutput.number(entry.total)])
                    }
                }),
            ]))
        }
        let first = from.startOfWeek
        let weeks = first.days(to: to) / 7 + 1
        var lines: [String] = []
        // Month labels above the first week that starts in each month.
        var header = Array(repeating: " ", count: weeks * 2)
        for week in 0..<weeks {
            let monday = first.adding(days: week * 7)
            if monday.day <= 7 {
                let label = Array(["", "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][monday.month])
                for (index, character) in label.enumerated() {
                    while header.count <= week * 2 + index { header.append(" ") }
                    header[week * 2 + index] = String(character)
                }
            }
        }
        lines.append("    " + header.joined())
        for weekday in 1...7 {
            var line = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][weekday - 1] + " "
            for week in 0..<weeks {
                let day = first.adding(days: week * 7 + weekday - 1)
                guard range.contains(day), let entry = timeline.entry(on: day) else { line += "  "; continue }
                let level = HeatLevel.of(entry)
                if environment.io.isTerminal {
                    line += "\u{1B}[38;5;\(colours[level])m■\u{1B}[0m "
                } else {
                    line += plain[level] + " "
                }
            }
            lines.append(line)
        }
        lines.append("\(timeline.habit.name): \(from) … \(to)")
        lines.forEach(environment.io.print)
    }
}
