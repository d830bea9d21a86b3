import Foundation
import StackDay
import StackDayApplication
import StackDayExchange

/// `stackday record`, `undo`, `skip`, `unskip` and `log`.
enum RecordCommand {
    static var record: CommandSpec {
        CommandSpec(
            name: "record", abstract: "Record an amount for a habit.",
            discussion: "Without --on or --at the day is today. --at turns an instant into a day through --tz and --day-starts-at.",
            run: runRecord
        ).taking([HabitCommand.name.declaration] + RecordRequest.fields)
    }

    static var undo: CommandSpec {
        CommandSpec(name: "undo", abstract: "Remove the latest completion of a day.", run: runUndo).taking([HabitCommand.name.declaration] + UndoRequest.fields)
    }

    static var skip: CommandSpec {
        CommandSpec(name: "skip", abstract: "Excuse a day or a range of days; a skipped day neither counts nor breaks a streak.", run: runSkip)
            .taking([HabitCommand.name.declaration] + SkipRequest.fields)
    }

    static var unskip: CommandSpec {
        CommandSpec(name: "unskip", abstract: "Take back the skip of a day or of a range of days; they count again.", run: runUnskip)
            .taking([HabitCommand.name.declaration] + SkipRequest.fields)
    }

    static var log: CommandSpec {
        CommandSpec(name: "log", abstract: "List a habit's records: day, amount, when each was recorded, and its note.", run: runLog)
            .taking([HabitCommand.name.declaration] + RecordLogRequest.fields)
    }

    static func runRecord(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let app = try environment.application()
        let view = try app.record(invocation.required(HabitCommand.name), invocation.request())
        environment.io.committed = "recorded"
        if environment.printedJSON(view) { return }
        let amount = Quantity.describe(view.completion.amount), day = view.completion.completedOn
        environment.io.print(environment.words.say(view.completion.note == nil ? "Recorded {amount} for '{habit}' on {day}." : "Recorded {amount} for '{habit}' on {day}, with a note.",
                                                   ("amount", "\(amount)"), ("habit", view.habit), ("day", "\(day)")))
        // A record on a day the schedule does not ask for is kept, and said: it may be a slip of the day.
        if case .days(let timeline, _)? = (try? app.calendar([view.habit], CalendarRequest(from: day, to: day)))?.sheets.first, timeline.entry(on: day)?.isDue == false {
            environment.io.print(environment.words.say("{day} is not a due day for '{habit}' by its schedule; the record is kept.",
                                                       ("day", "\(day)"), ("habit", view.habit)))
        }
    }

    static func runUndo(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().undo(invocation.required(HabitCommand.name), invocation.request())
        environment.io.committed = "undone"
        if environment.printedJSON(view) { return }
        let amount = Quantity.describe(view.completion.amount), day = view.completion.completedOn
        environment.io.print(environment.words.say("Removed {amount} recorded for '{habit}' on {day}.", ("amount", "\(amount)"), ("habit", view.habit), ("day", "\(day)")))
    }

    static func runSkip(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().skip(invocation.required(HabitCommand.name), invocation.request())
        environment.io.committed = "skipped"
        if environment.printedJSON(view) { return }
        let count = view.skips.count
        let span = view.days.first == view.days.last ? "\(view.days.first)" : "\(view.days.first) … \(view.days.last)"
        // Skipping a day already skipped changes nothing, and says so (taking back a skip that is not there is an error).
        guard count > 0 else {
            return environment.io.print(environment.words.say("'{habit}' is already skipped on {span}; nothing changed.", ("habit", view.habit), ("span", "\(span)")))
        }
        environment.io.print(environment.words.say("Skipped {days} of '{habit}' ({first} … {last}).", ("days", "\(count) day\(count == 1 ? "" : "s")"),
                                                   ("count", "\(count)"), ("habit", view.habit), ("first", "\(view.days.first)"), ("last", "\(view.days.last)")))
    }

    static func runUnskip(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().unskip(invocation.required(HabitCommand.name), invocation.request())
        environment.io.committed = "unskipped"
        if environment.printedJSON(view) { return }
        let count = view.skips.count
        environment.io.print(environment.words.say("Took back {skips} of '{habit}' ({first} … {last}).", ("skips", "\(count) skip\(count == 1 ? "" : "s")"),
                                                   ("count", "\(count)"), ("habit", view.habit), ("first", "\(view.days.first)"), ("last", "\(view.days.last)")))
    }

    static func runLog(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().recordLog(invocation.required(HabitCommand.name), invocation.request())
        if environment.printedJSON(view) { return }
        guard !view.records.isEmpty else {
            return environment.io.print(environment.words.say("No records of '{habit}' from {first} to {last}.", ("habit", view.habit.name),
                                                              ("first", "\(view.days.first)"), ("last", "\(view.days.last)")))
        }
        let unit = view.habit.unit
        // The NOTE column is there when a record has one; a table row is one line, so a note's
        // line breaks are shown as ⏎.
        let notes = view.records.contains { $0.note != nil }
        let rows = [(["DAY", "AMOUNT", "RECORDED AT"] + (notes ? ["NOTE"] : [])).map { environment.words[$0] }] + view.records.map { record in
            [record.completedOn.iso, Format.quantity(record.amount, unit: unit), InstantText.local(record.recordedAt, in: environment.boundary.timeZone)]
                + (notes ? [(record.note ?? "").split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: " ⏎ ")] : [])
        }
        Format.table(rows).forEach(environment.io.print)
    }
}
