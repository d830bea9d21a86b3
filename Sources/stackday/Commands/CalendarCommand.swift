import StackDay
import StackDayApplication
import StackDayServer

/// `stackday calendar NAME...`: a GitHub-style heatmap per habit in the terminal.
enum CalendarCommand {
    static let names = RequestField<[String]>.arguments("names", name: "name", help: "The habit's name (case-insensitive); several may be given.")
        .commandLineOnly

    static var spec: CommandSpec {
        CommandSpec(
            name: "calendar", abstract: "A calendar of each habit named: weeks as columns, the week's first day on top, a mark for each day's state.",
            discussion: """
            Each state has its own mark: █ met, ▒ partly done, x missed, - skipped, · not due, ? pending; a legend line says so. \
            Colours are added on a terminal unless NO_COLOR is set (--color always or never decides instead). \
            A habit whose policy fails shows its error instead.
            """,
            run: run
        ).taking([names.declaration] + CalendarRequest.fields + [ColorChoice.option.declaration])
    }

    static func run(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let colour = try ColorChoice(invocation).colours(terminal: environment.io.isTerminal, environment: environment.io.environment)
        let application = try environment.application()
        let view = try application.calendar(invocation[names] ?? [], invocation.request())
        let weekStart = application.context.boundary.weekStart
        if !environment.printedJSON(view) {
            for (index, sheet) in view.sheets.enumerated() {
                if index > 0 { environment.io.print() }
                switch sheet {
                case .days(let timeline, let range): heatmap(timeline, range: range, colour: colour, words: environment.words, weekStart: weekStart).forEach(environment.io.print)
                case .failed(let failure): environment.io.print("\(failure.habit.name): \(environment.words["error"]): \(failure.message)")
                }
            }
        }
        try HabitsFailed.check(view.failures)
    }

    /// The calendar's lines: month labels, a row per weekday (from the user's week start), the
    /// habit's name with the range, and the legend of its marks.
    static func heatmap(_ timeline: HabitTimeline, range: LocalDayRange, colour: Bool, words: Words = Words(.english),
                        weekStart: WeekStart = .monday) -> [String] {
        heatmap(timeline.habit.name, startedOn: timeline.habit.startedOn, range: range, colour: colour, words: words, weekStart: weekStart,
                limited: timeline.habit.revision(on: range.last).progress.atMostLimit != nil, entry: timeline.calendarEntry(on:))
    }

    /// The same of any days drawn as a habit's are (a group's): `entry` gives each day's, nil
    /// for a day not tracked.
    static func heatmap(_ name: String, startedOn: LocalDay, range: LocalDayRange, colour: Bool, words: Words, weekStart: WeekStart,
                        limited: Bool, entry: (LocalDay) -> HabitEntry?) -> [String] {
        guard !range.isEmpty else { return ["\(name): no tracked days up to \(range.last) (it starts on \(startedOn))"] }
        let first = range.first.startOfWeek(weekStart)
        let weeks = first.days(to: range.last) / 7 + 1
        var lines: [String] = []
        // Month labels above the first week that starts in each month; a double-width character
        // (월) takes the slot after it too.
        var header = Array(repeating: " ", count: weeks * 2)
        for week in 0..<weeks {
            let monday = first.adding(days: week * 7)
            if monday.day <= 7 {
                let label = words.month(monday.month).flatMap { character in
                    DisplayWidth.of(String(character)) > 1 ? [String(character), ""] : [String(character)]
                }
                for (index, character) in label.enumerated() {
                    while header.count <= week * 2 + index { header.append(" ") }
                    header[week * 2 + index] = character
                }
            }
        }
        lines.append("    " + header.joined())
        for (row, label) in words.weekdays(weekStart).enumerated() {
            var line = label + String(repeating: " ", count: max(1, 4 - DisplayWidth.of(label)))
            for week in 0..<weeks {
                let day = first.adding(days: week * 7 + row)
                guard range.contains(day), let entry = entry(day) else { line += "  "; continue }
                line += CalendarMark(entry).drawn(colour: colour) + " "
            }
            lines.append(line)
        }
        lines.append("\(name): \(range.first) … \(range.last)")
        lines.append(CalendarMark.legend(colour: colour, words: words, limited: limited))
        return lines
    }
}
