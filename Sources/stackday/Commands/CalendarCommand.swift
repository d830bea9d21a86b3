import StackDay
import StackDayApplication
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
        let view = try environment.application().calendar(invocation.arguments("name"), invocation.fields())
        if !environment.printedJSON(view) {
            for (index, sheet) in view.sheets.enumerated() {
                if index > 0 { environment.io.print() }
                switch sheet {
                case .days(let timeline, let range): heatmap(timeline, range: range, colour: environment.io.isTerminal).forEach(environment.io.print)
                case .failed(let failure): environment.io.print("\(failure.habit.name): error: \(failure.message)")
                }
            }
        }
        try HabitsFailed.check(view.failures)
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
