import Foundation
import StackDay
import StackDayApplication

/// `stackday habit …`: create, list, show, rename, edit, move, archive, unarchive and delete habits.
enum HabitCommand {
    /// The habit a command acts on: the first argument.
    static let name = RequestField<String>.text("name", help: "The habit's name (case-insensitive).").argument("name", optional: false).commandLineOnly

    static let fromICS = RequestField<String>.text("fromIcs", help: "An .ics file with one recurring event: its rule and start (and name).",
                                                   valueName: "file").commandLineOnly

    /// `habit rename`'s second argument.
    static let newName = RequestField<String>.text("newName", help: "The new name.").argument("new-name", optional: false).commandLineOnly

    static var spec: CommandSpec {
        CommandSpec(name: "habit", abstract: "Create and manage habits.", subcommands: [
            CommandSpec(name: "add", abstract: "Create a habit.",
                        discussion: """
                        --schedule takes a policy's name, words ("3 times a week", "매월 마지막 금요일"), or a rule pasted
                        from a calendar (RRULE, DTSTART and EXDATE lines, or a VEVENT). --from-ics reads an .ics file's one
                        recurring event: its rule, its start, and its SUMMARY as the name when none is given.
                        """,
                        run: add).taking(CreateHabitRequest.fields + [fromICS.declaration]),
            CommandSpec(name: "list", abstract: "List habits in their order ('habit move' changes it).", run: list).taking(ListHabitsRequest.fields),
            CommandSpec(name: "show", abstract: "Show a habit's settings and statistics.", run: show).taking([name.declaration]),
            CommandSpec(name: "rename", abstract: "Rename a habit.", run: rename).taking([name.declaration, newName.declaration]),
            CommandSpec(name: "edit", abstract: "Change a habit's goal, unit, start day or policies.",
                        discussion: """
                        A new goal or policy is a new rule revision: days before --from keep their results.
                        A policy named as before keeps its pinned script; 'stackday policy upgrade' moves it.
                        """,
                        run: edit).taking([name.declaration] + EditHabitRequest.fields),
            CommandSpec(name: "move", abstract: "Move a habit in the list: before another, or last.",
                        discussion: "The order is kept by sync, and shown by 'habit list', the web app and the API.",
                        run: move).taking([name.declaration] + MoveHabitRequest.fields),
            CommandSpec(name: "archive", abstract: "Stop tracking a habit after a day (inclusive).", run: archive).taking([name.declaration] + ArchiveRequest.fields),
            CommandSpec(name: "unarchive", abstract: "Resume tracking an archived habit.", run: unarchive).taking([name.declaration]),
            CommandSpec(name: "delete", abstract: "Delete a habit with its completions and skips (asks first; --yes for scripts).",
                        run: delete).taking([name.declaration, Confirmation.option.declaration]),
        ])
    }

    static func add(_ invocation: Invocation) throws {
        var fields = invocation.fields(CreateHabitRequest.fields)
        if let path = try invocation[fromICS] {
            guard !fields.has(HabitRules.schedule) else { throw invocation.usage("--from-ics and --schedule cannot be used together") }
            guard let data = FileManager.default.contents(atPath: path) else { throw CommandFailure("cannot read \(path): no such file, or not readable") }
            guard let text = String(data: data, encoding: .utf8) else { throw CommandFailure("\(path) is not UTF-8 text") }
            fields = fields.with(HabitRules.schedule.key, .text(text), label: "--from-ics \(path)")
        } else if !fields.has(CreateHabitRequest.name) {
            throw invocation.usage("missing expected argument '<name>' (or --from-ics FILE, whose event names the habit)")
        }
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().createHabit(fields.decode())
        if environment.printedJSON(view) { return }
        let habit = view.habit
        let target = environment.words.target(DayTarget(habit.latest), unit: habit.unit)
        environment.io.print(environment.language == .korean
            ? "만들었습니다: '\(habit.name)', \(target), \(habit.startedOn)부터, 일정 \(view.scheduleShown)"
            : "Created '\(habit.name)': \(target) from \(habit.startedOn), schedule \(view.scheduleShown).")
        if let rule = ShortMonthRule(habit.latest.schedule) { environment.io.print(environment.words.shortMonths(rule)) }
        if let reminders = view.schedule?.reminders, !reminders.isEmpty, habit.latest.reminders == reminders {
            let times = reminders.map(\.description).joined(separator: ", ")
            environment.io.print(environment.words["Reminders from the event: {times}"].replacingOccurrences(of: "{times}", with: times))
        }
    }

    static func list(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().listHabits(invocation.request())
        if environment.printedJSON(view) { return }
        let habits = view.habits
        let words = environment.words
        if habits.isEmpty {
            return environment.io.print(words.say("No habits yet. Add one with: stackday habit add NAME"))
        }
        let rows = [["NAME", "GOAL", "SCHEDULE", "STARTED", "ARCHIVED"].map { words[$0] }] + habits.map {
            [$0.name, Format.quantity($0.goal, unit: $0.unit), describe($0.schedule), $0.startedOn.iso, $0.archivedOn?.iso ?? "-"]
        }
        Format.table(rows).forEach(environment.io.print)
    }

    /// `name {params}`; with `pinned`, the name as `name@hash12`.
    static func describe(_ choice: PolicyChoice, pinned: Bool = false) -> String { choice.described(pinned: pinned) }

    static func show(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().showHabit(invocation.required(name))
        if !environment.printedJSON(view) {
            switch view.result {
            case .success(let summary):
                Format.table(definition(summary.habit, words: environment.words) + figures(summary, words: environment.words)).forEach(environment.io.print)
            case .failure(let failure):
                // The definition still shows which policy failed.
                Format.table(definition(failure.habit, words: environment.words) + [[environment.words["error"], failure.message]]).forEach(environment.io.print)
            }
        }
        try HabitsFailed.check(view.failure.map { [$0] } ?? [])
    }

    /// The rows of `habit show` for the figures, in the unit the habit counts in.
    static func figures(_ summary: HabitSummary, words: Words) -> [[String]] {
        let stats = summary.statistics
        let unit = summary.countsIn
        let due = unit == .days ? words.say("{due} due days", ("due", String(stats.eligibleDays))) : words.count(stats.eligibleDays, unit)
        let completed = words.say("{completed} of {due} ({rate})", ("completed", String(stats.completedDays)), ("counted", words.count(stats.completedDays, unit)),
                                  ("due", due), ("rate", Format.percent(stats.completionRate)))
        var rows = [
            [words["streak"], "\(words.count(stats.streak.current, unit)) (\(words["longest"]) \(words.count(stats.streak.longest, unit)))"],
            [words["completed"], completed],
            [words["score"], Format.percent(stats.score)],
        ]
        if let text = PeriodText(summary)?.text(words.language) { rows.insert([words["now"], text], at: 0) }
        return rows
    }

    /// The rows of `habit show` that describe the habit itself: its latest rules, pins included.
    static func definition(_ habit: Habit, words: Words = Words(.english)) -> [[String]] {
        let latest = habit.latest
        let text = [(words["question"], habit.question), (words["description"], habit.details)].compactMap { label, value in value.map { [label, $0] } }
        return [
            [words["name"], habit.name],
            [DayTarget(latest).limit == nil ? words["goal"] : words["limit"],
             words.say("{amount} a day", ("amount", Format.quantity(DayTarget(latest).amount, unit: habit.unit)))],
            [words["started"], habit.startedOn.iso],
            [words["archived"], habit.archivedOn?.iso ?? words["no"]],
            [words["rules"], words.say("revision {number} of {count}, from {day}", ("number", String(latest.number)),
                                       ("count", String(habit.revisions.count)), ("day", latest.effectiveFrom.iso))],
            [words["schedule"], describe(latest.schedule, pinned: true)],
            [words["progress"], describe(latest.progress, pinned: true)],
            [words["streak rule"], describe(latest.streak, pinned: true)],
            [words["reminders"], latest.reminders.isEmpty ? words["none"] : latest.reminders.map(\.description).joined(separator: ", ")],
            [words["colour"], habit.colorTag.map { words[$0.rawValue] } ?? words["none"]],
            [words["step"], Format.quantity(habit.stepAmount, unit: habit.unit)],
        ] + text
    }

    static func rename(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().editHabit(invocation.required(name),
                                                           EditHabitRequest(name: try invocation.required(newName), naming: FieldNaming()))
        if environment.printedJSON(view) { return }
        environment.io.print(environment.words.say("Renamed to '{name}'.", ("name", view.habit.name)))
    }

    static func edit(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().editHabit(invocation.required(name), invocation.request())
        if environment.printedJSON(view) { return }
        let habit = view.habit
        if view.revised {
            environment.io.print(environment.words.say("Updated '{name}': rule revision {number} judges days from {day}.", ("name", habit.name),
                                                       ("number", String(habit.latest.number)), ("day", habit.latest.effectiveFrom.iso)))
        } else {
            environment.io.print(environment.words.say("Updated '{name}'.", ("name", habit.name)))
        }
        if view.schedule != nil, let rule = ShortMonthRule(habit.latest.schedule) { environment.io.print(environment.words.shortMonths(rule)) }
    }

    static func move(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let application = try environment.application()
        let view = try application.moveHabit(invocation.required(name), invocation.request())
        if environment.printedJSON(view) { return }
        let names = try application.listHabits(ListHabitsRequest(.all, limit: Habit.positionLimit, naming: FieldNaming())).habits.map(\.name)
        environment.io.print(environment.words.say("Moved '{name}'. Order: {order}.", ("name", view.habit.name), ("order", names.joined(separator: ", "))))
    }

    static func archive(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().archiveHabit(invocation.required(name), invocation.request())
        if environment.printedJSON(view) { return }
        let habit = view.habit
        let last = habit.archivedOn?.iso ?? ""
        environment.io.print(environment.words.say("Archived '{name}'; {day} is its last tracked day.", ("name", habit.name), ("day", "\(last)")))
    }

    static func unarchive(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().unarchiveHabit(invocation.required(name))
        if environment.printedJSON(view) { return }
        let habit = view.habit
        environment.io.print(environment.words.say("'{name}' is active again.", ("name", habit.name)))
    }

    static func delete(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let name = try invocation.required(Self.name)
        // The habit is found first: a misspelled name is answered before anything is asked.
        let found = try FindHabit(context: environment.context())(named: name)
        try Confirmation.require(invocation, io: environment.io, question: "Delete '\(found.name)' with all its completions and skips?",
                                 refusal: "habit delete deletes '\(found.name)' with its history")
        let view = try environment.application().deleteHabit(name)
        if environment.printedJSON(view) { return }
        let habit = view.habit
        environment.io.print(environment.words.say("Deleted '{name}' with its completions and skips.", ("name", habit.name)))
    }
}
