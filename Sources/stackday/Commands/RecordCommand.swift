import Foundation
import StackDay
import StackDayExchange

/// `stackday record`, `undo` and `skip`.
enum RecordCommand {
    static var record: CommandSpec {
        CommandSpec(
            name: "record", abstract: "Record an amount for a habit.",
            discussion: "Without --on or --at the day is today. --at turns an instant into a day through --tz and --day-starts-at.",
            arguments: [HabitCommand.name, ArgumentSpec(name: "amount", help: "How much (default: 1).", isOptional: true)],
            options: [
                OptionSpec(name: "on", valueName: "day", help: "The day it counts for, YYYY-MM-DD."),
                OptionSpec(name: "at", valueName: "instant", help: "When it happened, ISO 8601 with an offset."),
            ],
            run: runRecord
        )
    }

    static var undo: CommandSpec {
        CommandSpec(
            name: "undo", abstract: "Remove the latest completion of a day.", arguments: [HabitCommand.name],
            options: [OptionSpec(name: "on", valueName: "day", help: "The day (default: today).")], run: runUndo
        )
    }

    static var skip: CommandSpec {
        CommandSpec(
            name: "skip", abstract: "Excuse a day or a range of days; a skipped day neither counts nor breaks a streak.",
            arguments: [HabitCommand.name],
            options: [
                OptionSpec(name: "on", valueName: "day", help: "The day to skip (default: today)."),
                OptionSpec(name: "from", valueName: "day", help: "The first day of a range."),
                OptionSpec(name: "to", valueName: "day", help: "The last day of a range."),
            ],
            run: runSkip
        )
    }

    static func runRecord(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        var amount = 1.0
        if let text = invocation.argument("amount") {
            guard let value = Double(text) else { throw invocation.usage("invalid value for <amount>: '\(text)' is not a number") }
            amount = value
        }
        if invocation.option("on") != nil && invocation.option("at") != nil {
            throw invocation.usage("give --on or --at, not both")
        }
        let record = RecordCompletion(context: try environment.context())
        let name = invocation.required("name")
        let completion: Completion
        if let text = invocation.option("at") {
            guard let instant = CLIEnvironment.parseInstant(text) else {
                throw invocation.usage("invalid value for --at: '\(text)' is not an ISO 8601 instant with an offset")
            }
            completion = try record(habitName: name, amount: amount, at: instant)
        } else {
            completion = try record(habitName: name, amount: amount, on: try invocation.day("on"))
        }
        if environment.json { return environment.printJSON(JSONOutput.completion(completion, habit: name)) }
        environment.io.print("Recorded \(Quantity.describe(completion.amount)) for '\(name)' on \(completion.completedOn).")
    }

    static func runUndo(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let name = invocation.required("name")
        let removed = try CancelCompletion(context: try environment.context())(habitName: name, on: try invocation.day("on"))
        if environment.json { return environment.printJSON(JSONOutput.completion(removed, habit: name)) }
        environment.io.print("Removed \(Quantity.describe(removed.amount)) recorded for '\(name)' on \(removed.completedOn).")
    }

    static func runSkip(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let range: LocalDayRange
        switch (try invocation.day("on"), try invocation.day("from"), try invocation.day("to")) {
        case (let day?, nil, nil): range = LocalDayRange(day, day)
        case (nil, let from?, let to?): range = LocalDayRange(from, to)
        case (nil, nil, nil): range = LocalDayRange(environment.today, environment.today)
        default: throw invocation.usage("give --on DAY, or both --from DAY and --to DAY")
        }
        let skips = try SkipDays(context: try environment.context())(habitName: invocation.required("name"), days: range)
        if environment.json { return environment.printJSON(.object(["skipped": .array(skips.map { .string($0.day.iso) })])) }
        environment.io.print("Skipped \(skips.count) day\(skips.count == 1 ? "" : "s") of '\(invocation.required("name"))' (\(range.first) … \(range.last)).")
    }
}
