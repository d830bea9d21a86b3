import Foundation
import StackDay
import StackDayExchange

/// `stackday habit …`: create, list, show, rename, edit, archive, unarchive and delete habits.
enum HabitCommand {
    static let policyOptions: [OptionSpec] = [
        OptionSpec(name: "goal", valueName: "n", help: "How much makes a day done (default: 1)."),
        OptionSpec(name: "unit", valueName: "unit", help: "The unit of amounts, e.g. cups or km."),
        OptionSpec(name: "start", valueName: "day", help: "The first tracked day, YYYY-MM-DD (default: today)."),
        OptionSpec(name: "schedule", valueName: "policy", help: "The schedule policy (default: daily)."),
        OptionSpec(name: "schedule-params", valueName: "json", help: "Parameters for the schedule policy, a JSON object."),
        OptionSpec(name: "progress", valueName: "policy", help: "The progress policy (default: goal)."),
        OptionSpec(name: "progress-params", valueName: "json", help: "Parameters for the progress policy, a JSON object."),
        OptionSpec(name: "streak", valueName: "policy", help: "The streak policy (default: strict)."),
        OptionSpec(name: "streak-params", valueName: "json", help: "Parameters for the streak policy, a JSON object."),
    ]

    static let name = ArgumentSpec(name: "name", help: "The habit's name (case-insensitive).")

    static let revisionOptions: [OptionSpec] = [
        OptionSpec(name: "from", valueName: "day", help: "The first day the new rules judge (default: today)."),
        OptionSpec(name: "retroactive", valueName: nil, help: "Judge the whole history by the new rules, from the start day."),
    ]

    /// `--from DAY`, `--retroactive` (not both), else today.
    static func revisionStart(_ invocation: Invocation) throws -> RevisionStart {
        let from = try invocation.day("from")
        if invocation.flag("retroactive") {
            guard from == nil else { throw invocation.usage("--from and --retroactive cannot be used together") }
            return .retroactive
        }
        return from.map(RevisionStart.day) ?? .today
    }

    static var spec: CommandSpec {
        CommandSpec(name: "habit", abstract: "Create and manage habits.", subcommands: [
            CommandSpec(name: "add", abstract: "Create a habit.", arguments: [name], options: policyOptions, run: add),
            CommandSpec(name: "list", abstract: "List habits in creation order.",
                        options: [OptionSpec(name: "active", valueName: nil, help: "Leave archived habits out.")], run: list),
            CommandSpec(name: "show", abstract: "Show a habit's settings and statistics.", arguments: [name], run: show),
            CommandSpec(name: "rename", abstract: "Rename a habit.",
                        arguments: [name, ArgumentSpec(name: "new-name", help: "The new name.")], run: rename),
            CommandSpec(name: "edit", abstract: "Change a habit's goal, unit, start day or policies.",
                        discussion: """
                        A new goal or policy is a new rule revision: days before --from keep their results.
                        A policy named as before keeps its pinned script; 'stackday policy upgrade' moves it.
                        """,
                        arguments: [name], options: policyOptions + revisionOptions, run: edit),
            CommandSpec(name: "archive", abstract: "Stop tracking a habit after a day (inclusive).", arguments: [name],
                        options: [OptionSpec(name: "on", valueName: "day", help: "The last tracked day (default: today).")], run: archive),
            CommandSpec(name: "unarchive", abstract: "Resume tracking an archived habit.", arguments: [name], run: unarchive),
            CommandSpec(name: "delete", abstract: "Delete a habit with its completions and skips.", arguments: [name], run: delete),
        ])
    }

    /// The policy choices named by the options, each only when given.
    static func choices(_ invocation: Invocation, current: Habit?) throws -> (schedule: PolicyChoice?, progress: PolicyChoice?, streak: PolicyChoice?) {
        func choice(_ role: String, _ existing: PolicyChoice?) throws -> PolicyChoice? {
            let name = invocation.option(role)
            let params = invocation.option("\(role)-params")
            guard name != nil || params != nil else { return nil }
            let policy = name ?? existing?.name ?? (role == "schedule" ? "daily" : role == "progress" ? "goal" : "strict")
            // Unpinned: EditHabit keeps the habit's pin when the policy is the one it runs.
            guard let params else { return PolicyChoice(name: policy) }
            do {
                return try PolicyChoice(name: policy, parametersJSON: params)
            } catch {
                throw invocation.usage("invalid value for --\(role)-params: \(error)")
            }
        }
        return (try choice("schedule", current?.schedule), try choice("progress", current?.progress), try choice("streak", current?.streak))
    }

    static func goal(_ invocation: Invocation) throws -> Double? {
        guard let text = invocation.option("goal") else { return nil }
        guard let value = Double(text) else { throw invocation.usage("invalid value for --goal: '\(text)' is not a number") }
        return value
    }

    static func add(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let choices = try choices(invocation, current: nil)
        let habit = try CreateHabit(context: try environment.context())(
            name: invocation.required("name"),
            startedOn: try invocation.day("start"),
            goal: try goal(invocation) ?? 1,
            unit: invocation.option("unit") ?? "",
            schedule: choices.schedule ?? .daily,
            progress: choices.progress ?? .goal,
            streak: choices.streak ?? .strict
        )
        if environment.json { return environment.printJSON(JSONOutput.habit(habit)) }
        environment.io.print("Created '\(habit.name)': goal \(Format.quantity(habit.goal, unit: habit.unit)) a day from \(habit.startedOn), schedule \(habit.schedule.name).")
    }

    static func list(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let habits = try ListHabits(context: try environment.context())(includeArchived: !invocation.flag("active"))
        if environment.json { return environment.printJSON(.object(["habits": .array(habits.map(JSONOutput.habit))])) }
        if habits.isEmpty { return environment.io.print("No habits yet. Add one with: stackday habit add NAME") }
        let rows = [["NAME", "GOAL", "SCHEDULE", "STARTED", "ARCHIVED"]] + habits.map {
            [$0.name, Format.quantity($0.goal, unit: $0.unit), describe($0.schedule), $0.startedOn.iso, $0.archivedOn?.iso ?? "-"]
        }
        Format.table(rows).forEach(environment.io.print)
    }

    /// `name {params}`; with `pinned`, the name as `name@hash12`.
    static func describe(_ choice: PolicyChoice, pinned: Bool = false) -> String {
        let name = pinned ? choice.label : choice.name
        return choice.parameters.isEmpty ? name : "\(name) \(choice.parametersJSON)"
    }

    static func show(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let context = try environment.context()
        guard let result = try SummarizeHabits(context: context)(habitName: invocation.required("name")).first else { return }
        let summary: HabitSummary
        switch result {
        case .success(let value): summary = value
        case .failure(let failure):
            // The definition still shows which policy failed.
            if environment.json {
                environment.printJSON(JSONOutput.habitShow(result))
            } else {
                Format.table(definition(failure.habit) + [["error", failure.message]]).forEach(environment.io.print)
            }
            throw HabitsFailed(failures: [failure])
        }
        let habit = summary.habit
        let stats = summary.statistics
        if environment.json { return environment.printJSON(JSONOutput.habitShow(result)) }
        let lines = definition(habit) + [
            ["streak", "\(stats.streak.current) (longest \(stats.streak.longest))"],
            ["completed", "\(stats.completedDays) of \(stats.eligibleDays) due days (\(Format.percent(stats.completionRate)))"],
            ["score", Format.percent(stats.score)],
        ]
        Format.table(lines).forEach(environment.io.print)
    }

    /// The rows of `habit show` that describe the habit itself: its latest rules, pins included.
    static func definition(_ habit: Habit) -> [[String]] {
        let latest = habit.latest
        return [
            ["name", habit.name],
            ["goal", "\(Format.quantity(latest.goal, unit: habit.unit)) a day"],
            ["started", habit.startedOn.iso],
            ["archived", habit.archivedOn?.iso ?? "no"],
            ["rules", "revision \(latest.number) of \(habit.revisions.count), from \(latest.effectiveFrom.iso)"],
            ["schedule", describe(latest.schedule, pinned: true)],
            ["progress", describe(latest.progress, pinned: true)],
            ["streak rule", describe(latest.streak, pinned: true)],
        ]
    }

    static func rename(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let habit = try RenameHabit(context: try environment.context())(habitName: invocation.required("name"), to: invocation.required("new-name"))
        if environment.json { return environment.printJSON(JSONOutput.habit(habit)) }
        environment.io.print("Renamed to '\(habit.name)'.")
    }

    static func edit(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let context = try environment.context()
        let current = try FindHabit(context: context)(named: invocation.required("name"))
        let choices = try choices(invocation, current: current)
        let changes = HabitChanges(
            startedOn: try invocation.day("start"), goal: try goal(invocation), unit: invocation.option("unit"),
            schedule: choices.schedule, progress: choices.progress, streak: choices.streak,
            rulesFrom: try revisionStart(invocation)
        )
        if !changes.changesRules, invocation.option("from") != nil || invocation.flag("retroactive") {
            throw invocation.usage("--from and --retroactive apply to a new goal or policy; give --goal, --schedule, --progress or --streak")
        }
        let habit = try EditHabit(context: context)(habitName: invocation.required("name"), changes: changes)
        if environment.json { return environment.printJSON(JSONOutput.habit(habit)) }
        if habit.latest.number > current.latest.number {
            environment.io.print("Updated '\(habit.name)': rule revision \(habit.latest.number) judges days from \(habit.latest.effectiveFrom).")
        } else {
            environment.io.print("Updated '\(habit.name)'.")
        }
    }

    static func archive(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let habit = try ArchiveHabit(context: try environment.context())(habitName: invocation.required("name"), on: try invocation.day("on"))
        if environment.json { return environment.printJSON(JSONOutput.habit(habit)) }
        environment.io.print("Archived '\(habit.name)'; \(habit.archivedOn?.iso ?? "") is its last tracked day.")
    }

    static func unarchive(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let habit = try UnarchiveHabit(context: try environment.context())(habitName: invocation.required("name"))
        if environment.json { return environment.printJSON(JSONOutput.habit(habit)) }
        environment.io.print("'\(habit.name)' is active again.")
    }

    static func delete(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let habit = try DeleteHabit(context: try environment.context())(habitName: invocation.required("name"))
        if environment.json { return environment.printJSON(JSONOutput.habit(habit)) }
        environment.io.print("Deleted '\(habit.name)' with its completions and skips.")
    }
}
