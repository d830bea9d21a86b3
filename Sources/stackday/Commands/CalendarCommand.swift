import StackDay
import StackDayExchange
import StackDayServer

/// `stackday calendar NAME...`: a GitHub-style heatmap per habit in the terminal.
enum CalendarCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "calendar", abstract: "A heatmap of each habit named: weeks as columns, Monday on top, shaded by progress.",
            discussion: "Colours are used only on a terminal; piped output uses the characters · ░ ▒ ▓ █. A habit whose policy fails shows its error instead.",
            arguments: [ArgumentSpec(name: "name", help: "The habit's name (case-insensitive); several may be given.", isVariadic: true)],
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
        let to = try invocation.day("to") ?? environment.today
        let from = try invocation.day("from")
        if let from, from > to { throw invocation.usage("--from \(from) is after --to \(to)") }
        let names = invocation.arguments("name")
        let results = try LoadTimeline(context: try environment.context())(names.map(HabitReference.name), through: to)
        func range(_ timeline: HabitTimeline) throws -> LocalDayRange {
            try timeline.calendarDays(from: from, through: to)
        }
        if environment.json {
            let objects: [JSONValue] = try results.map { result in
                switch result {
                case .success(let timeline): JSONOutput.calendar(timeline, range: try range(timeline))
                case .failure(let failure): JSONOutput.calendarFailure(failure)
                }
            }
            environment.printJSON(objects.count == 1 ? objects[0] : .object(["calendars": .array(objects)]))
        } else {
            for (index, result) in results.enumerated() {
                if index > 0 { environment.io.print() }
                switch result {
                case .success(let timeline): heatmap(timeline, range: try range(timeline), colour: environment.io.isTerminal).forEach(environment.io.print)
                case .failure(let failure): environment.io.print("\(failure.habit.name): error: \(failure.message)")
                }
            }
        }
        try HabitsFailed.check(results.failures())
    }

    /// The heatmap's lines: month labels, a row per weekday, and the habit's name with the range.
    static func heatmap(_ timeline: HabitTimeline, range: LocalDayRange, colour: Bool) -> [String] {
        guard !range.isEmpty else { return ["\(timeline.habit.name): no tracked days up to \(range.last) (it starts on \(timeline.habit.startedOn))"] }
        let first = range.first.startOfWeek
        let weeks = first.days(to: range.last) / 7 + 1
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
                line += colour ? "\u{1B}[38;5;\(colours[level])m■\u{1B}[0m " : plain[level] + " "
            }
            lines.append(line)
        }
        lines.append("\(timeline.habit.name): \(range.first) … \(range.last)")
        return lines
    }
}
